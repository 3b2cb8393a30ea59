import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AuthError,
  CreditError,
  InputError,
  NetworkError,
  NotFoundError,
  OutputError,
  PermissionError,
  PlanError,
  ProviderError,
  RateLimitError,
  TimeoutError,
  ToolstepsError,
} from '../../src/errors/index.js';
import * as kit from '../../src/kit/index.js';

const SECRET = 'tok_live_abcdef123456';

const everyClass: ToolstepsError[] = [
  new InputError('bad input', [{ path: 'ticket.subject', message: 'required' }]),
  new OutputError('bad answer', [{ path: 'output.id', message: 'expected number' }]),
  new AuthError('refused', { status: 401, reauthorize: true }),
  new NotFoundError('missing', { status: 404 }),
  new PermissionError('forbidden', { status: 403 }),
  new RateLimitError('slow down', { status: 429, retryAfterMs: 2000 }),
  new ProviderError('failed', { status: 502, retryable: true }),
  new NetworkError('reset', { sent: 'unknown', transportCode: 'ECONNRESET' }),
  new TimeoutError('too slow', { sent: 'unknown' }),
  new AbortedError('stopped'),
  new CreditError('out of credits', { status: 402 }),
  new PlanError('upgrade', { status: 403 }),
  new ToolstepsError('partial_failure', 'halfway', { outcome: 'unknown' }),
];

describe('the error family', () => {
  it('prints one JSON shape for every class, null where a field is absent', () => {
    const keys = [
      'code',
      'context',
      'credits',
      'fields',
      'hint',
      'message',
      'name',
      'outcome',
      'retry_after_ms',
      'retryable',
      'sent',
      'status',
    ];
    for (const error of everyClass) expect(Object.keys(error.toJSON()).sort()).toEqual(keys);
    expect(new RateLimitError('slow', { retryAfterMs: 2000 }).toJSON()).toMatchObject({
      name: 'RateLimitError',
      code: 'rate_limited',
      retryable: true,
      retry_after_ms: 2000,
      hint: null,
      status: null,
    });
    expect(everyClass[0]?.toJSON().fields).toEqual([{ path: 'ticket.subject', message: 'required' }]);
  });

  it('covers every error class the kit gives step authors', () => {
    const offered = Object.values(kit).filter(
      (value): value is typeof ToolstepsError =>
        typeof value === 'function' &&
        (value === ToolstepsError || value.prototype instanceof ToolstepsError),
    );
    expect(offered.length).toBeGreaterThan(5);
    for (const errorClass of offered) {
      expect(
        everyClass.some((error) => error.constructor === errorClass),
        `${errorClass.name} is missing from everyClass`,
      ).toBe(true);
    }
  });

  it('names each class literally, and recognises the family by a marker, not only by prototype', () => {
    expect(everyClass.map((error) => error.name)).toEqual([
      'InputError',
      'OutputError',
      'AuthError',
      'NotFoundError',
      'PermissionError',
      'RateLimitError',
      'ProviderError',
      'NetworkError',
      'TimeoutError',
      'AbortedError',
      'CreditError',
      'PlanError',
      'ToolstepsError',
    ]);
    expect(ToolstepsError.isInstance(new NotFoundError('x'))).toBe(true);
    expect(ToolstepsError.isInstance(new Error('x'))).toBe(false);
    // A structured clone (another copy of the package, a worker) keeps no prototype; the marker is what counts.
    const lookalike = Object.assign(new Error('x'), { [Symbol.for('toolsteps.error')]: true });
    expect(ToolstepsError.isInstance(lookalike)).toBe(true);
  });

  it('never changes an error: every with-method returns a new one of the same class', () => {
    const original = new ProviderError('POST /tickets failed (502).', {
      status: 502,
      retryable: true,
      sent: true,
    });
    const unknown = original.asPossiblyApplied();
    expect(unknown).toBeInstanceOf(ProviderError);
    expect(unknown).not.toBe(original);
    expect(unknown).toMatchObject({ outcome: 'unknown', retryable: false, status: 502 });
    expect(unknown.hint).toMatch(/Check/);
    expect(original).toMatchObject({ outcome: undefined, retryable: true, hint: undefined });

    const replayed = original.asReplayed();
    expect(replayed.replayed).toBe(true);
    expect(original.replayed).toBe(false);

    const spent = original.withCredits({ estimated: { min: 0, max: 2 }, charged: 1 });
    expect(spent.credits).toEqual({ estimated: { min: 0, max: 2 }, charged: 1 });
    expect(original.credits).toBeUndefined();

    // A layer below that knew better keeps its words.
    const refused = original.withOutcome('refused', 'The provider did not act.');
    expect(refused.asPossiblyApplied()).toMatchObject({
      outcome: 'refused',
      hint: 'The provider did not act.',
    });
  });

  it('freezes the lists and facts it carries', () => {
    const error = new InputError('bad', [{ path: 'a', message: 'b' }], { context: { state: 'READY' } });
    expect(Object.isFrozen(error.fields)).toBe(true);
    expect(Object.isFrozen(error.context)).toBe(true);
    expect(() => (error.fields as unknown as unknown[]).push({ path: 'c' })).toThrow();
  });

  it('keeps `issues` on InputError and OutputError as a deprecated alias of `fields`, on every copy, never printed', () => {
    for (const error of [
      new InputError(`bad ${SECRET}`, [{ path: 'ticket.subject', message: `not ${SECRET}` }]),
      new OutputError('bad answer', [{ path: 'output.id', message: 'expected number' }]),
    ]) {
      for (const copy of [error, error.withHint('fix it'), error.redacted([SECRET])]) {
        expect(copy.issues).toBe(copy.fields);
      }
      expect(error.redacted([SECRET]).issues[0]?.message).not.toContain(SECRET);
      expect(Object.keys(error.toJSON())).not.toContain('issues');
      expect(JSON.stringify(error)).not.toContain('"issues"');
    }
    // Marked for editors and type-aware linters, so new code reaches for `fields`: once, in the two classes' base.
    for (const file of ['src/errors/field-issues-error.ts']) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const accessors: ts.GetAccessorDeclaration[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isGetAccessorDeclaration(node) && node.name.getText(source) === 'issues') accessors.push(node);
        ts.forEachChild(node, visit);
      };
      visit(source);
      expect(accessors, file).toHaveLength(1);
      const deprecated = ts.getJSDocDeprecatedTag(accessors[0]!);
      expect(deprecated, `${file}: @deprecated on issues`).toBeDefined();
      expect(ts.getTextOfJSDocComment(deprecated?.comment)).toMatch(/`fields`/);
    }
  });

  it('redacts into a new error: message, hint, provider words, fields, facts, stack and cause', () => {
    const cause = new NetworkError(`reset while sending Bearer ${SECRET}`, { sent: 'unknown' });
    const error = new ProviderError(`failed for ${SECRET}`, {
      hint: `retry without ${SECRET}`,
      providerMessage: `token ${SECRET} is bad`,
      fields: [{ path: SECRET, message: `value ${encodeURIComponent(SECRET)}` }],
      context: { echoed: { header: SECRET } },
      cause,
    });
    const clean = error.redacted([SECRET]);
    const texts = [
      clean.message,
      clean.hint,
      clean.providerMessage,
      JSON.stringify(clean),
      clean.stack,
      (clean.cause as Error).message,
      (clean.cause as Error).stack,
    ].join('\n');
    expect(texts).not.toContain(SECRET);
    expect(texts).toContain('[redacted]');
    expect(clean.cause).toBeInstanceOf(NetworkError);
    // The original is untouched: whoever holds it still sees what it said.
    expect(error.message).toContain(SECRET);
  });
});
