import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderOutcome } from '../../src/agents/tool-outcome.js';
import type { InvocationMeta } from '../../src/runtime/invocation.js';
import { MemoryAuditTrail } from '../../src/store/memory/memory-audit-trail.js';
import { resetOnce } from '../support/faults.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import { sandboxFixture } from '../support/sandbox-fixture.js';

/**
 * docs/library.md's table of `meta` fields is what an embedder codes
 * against: every field the runtime returns is in it, every field marked
 * "always" is always there, and the replay decision it promises after a
 * reconcile or an already-done delete is the one the runtime answers, over
 * real sockets against the sandbox.
 */

interface DocumentedField {
  name: string;
  always: boolean;
}

/** The table under `<!-- meta-fields ... -->` in docs/library.md, as field names and whether each is always present. */
function documentedMeta(): DocumentedField[] {
  const page = readFileSync('docs/library.md', 'utf8');
  const start = page.indexOf('<!-- meta-fields');
  if (start < 0) throw new Error('docs/library.md has no <!-- meta-fields --> table');
  const lines = page.slice(start).split('\n').slice(1);
  const rows = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('|')),
  );
  return rows.slice(2).map((row) => {
    const [field = '', present = ''] = row
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    const name = /^`(\w+)`$/.exec(field)?.[1];
    if (!name) throw new Error(`docs/library.md meta table: "${field}" is not one \`field\``);
    return { name, always: present === 'always' };
  });
}

/**
 * Every key of `InvocationMeta`, spelt out: a field added to the type and
 * not here fails to compile, and this list is held to the page below.
 */
const META_KEYS: Record<keyof InvocationMeta, true> = {
  step: true,
  connection: true,
  attempts: true,
  retries: true,
  durationMs: true,
  credits: true,
  rateLimit: true,
  rateLimitWaits: true,
  replay: true,
  fromIdempotencyRecord: true,
  audit: true,
};

const fx = useFixture(() =>
  sandboxFixture({
    runtime: { audit: new MemoryAuditTrail() },
    connections: (sandbox, clock) => {
      const tokens = sandbox.ticketing.issueTokens('acme');
      return [
        {
          id: 'tickets-main',
          integration: 'ticketing',
          kind: 'oauth2',
          fields: {
            subdomain: 'acme',
            baseUrl: sandbox.baseUrl('ticketing', 'acme'),
            clientId: 'toolsteps-cli',
          },
          secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
          expiresAt: clock.now() + (tokens.expires_in ?? 1800) * 1000,
        },
        {
          id: 'anz-main',
          integration: 'anz_data',
          kind: 'api_key',
          fields: { baseUrl: sandbox.baseUrl('anz-data') },
          secrets: { apiKey: sandbox.anzData.issueKey(100) },
        },
      ];
    },
  }),
);

/** The keys of `meta` that hold a value, as a caller iterating it sees them. */
function presentKeys(meta: InvocationMeta): string[] {
  return Object.entries(meta)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
}

describe("docs/library.md's meta table and what the runtime answers", () => {
  it('lists exactly the fields of InvocationMeta', () => {
    expect(
      documentedMeta()
        .map((field) => field.name)
        .sort(),
    ).toEqual(Object.keys(META_KEYS).sort());
  });

  it('a read, a write, a reconciled write, an already-done delete, a paid step and a repeated key answer only documented fields, the "always" ones every time', async () => {
    const documented = documentedMeta();
    const always = documented.filter((field) => field.always).map((field) => field.name);
    const read = await fx.invoke('ticketing.list_tickets', { limit: 1 });
    const write = await fx.invoke('ticketing.create_ticket', { subject: 'VPN down', description: 'd' });
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'POST' }));
    const reconciled = await fx.invoke('ticketing.create_ticket', {
      subject: 'Printer on fire',
      description: 'd',
      external_id: 'req-meta-1',
    });
    fx.sandbox.faults.add(resetOnce({ target: 'ticketing', method: 'DELETE' }));
    const deleted = await fx.invoke('ticketing.delete_ticket', { ticket_id: write.output.ticket.id });
    const paid = await fx.invoke(
      'anz_data.enrich_company',
      { domain: 'not-in-the-sandbox.example' },
      {
        connection: 'anz-main',
      },
    );
    const once = { idempotencyKey: 'meta-fields-1' };
    await fx.invoke(
      'ticketing.update_ticket',
      { ticket_id: reconciled.output.ticket.id, priority: 'low' },
      once,
    );
    const repeated = await fx.invoke(
      'ticketing.update_ticket',
      { ticket_id: reconciled.output.ticket.id, priority: 'low' },
      once,
    );

    const results = { read, write, reconciled, deleted, paid, repeated };
    const seen = new Set<string>();
    for (const [name, result] of Object.entries(results)) {
      const keys = presentKeys(result.meta);
      for (const key of keys) seen.add(key);
      expect({
        name,
        undocumented: keys.filter((key) => !documented.some((field) => field.name === key)),
      }).toEqual({
        name,
        undocumented: [],
      });
      expect({ name, missing: always.filter((key) => !keys.includes(key)) }).toEqual({ name, missing: [] });
    }
    // Each "when" field shows up where the table says it does, so none of its rows is a dead letter.
    expect([...seen].sort()).toEqual(documented.map((field) => field.name).sort());

    // The decisions the write-safety section promises, and only where a write was settled.
    expect(reconciled.output.recovered).toBe(true);
    expect(reconciled.meta.replay).toEqual({ decision: 'reconciled', after: 'network_error' });
    expect(deleted.output.already_done).toBe(true);
    expect(deleted.meta.replay).toEqual({ decision: 'already_done', after: 'not_found' });
    // An agent that reads the tool result's text only is told too.
    expect(renderOutcome({ ok: true, result: reconciled })).toContain(
      'A write failed (network_error) after it may have landed; the runtime found the work done: reconciled.',
    );
    for (const plain of [read, write, paid, repeated]) expect(plain.meta.replay).toBeUndefined();
    expect(read.meta.audit).toBeUndefined();
    expect(write.meta.audit).toBe('recorded');
    expect(repeated.meta.fromIdempotencyRecord).toBe(true);
    expect(paid.meta.credits).toMatchObject({ estimated: expect.any(Object) });
  });
});
