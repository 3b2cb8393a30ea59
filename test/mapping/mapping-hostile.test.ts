import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { mapVariables } from '../../src/mapping/mapping.js';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * Runs one mapping in a worker thread that is terminated after `limitMs`: a
 * synchronous regex that never returns cannot be stopped from the test's own
 * thread, so the worker is what lets a stalled evaluation fail the test.
 */
async function mapInWorker(
  output: unknown,
  mapping: Record<string, string>,
  limitMs: number,
): Promise<{ finished: true; variables: unknown } | { finished: false }> {
  // The mapping module, whose imports the transpiler follows wherever they lead.
  const sources = ['src/mapping/mapping.ts'];
  const root = await transpileForChild(sources);
  const source = `
    import { parentPort, workerData } from 'node:worker_threads';
    const { mapVariables } = await import(workerData.module);
    parentPort.postMessage(mapVariables(workerData.output, workerData.mapping));
  `;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    workerData: { module: `file://${root}/src/mapping/mapping.js`, output, mapping },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ finished: false });
    }, limitMs);
    worker.once('message', (variables) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ finished: true, variables });
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('mapping expressions cannot stall the process', () => {
  it('a catastrophic regex in a filter finishes (linear-time engine), with the RFC 9535 answer', async () => {
    // `(a+)+b` against a run of a's backtracks exponentially on a backtracking engine:
    // 27 characters took 28 s; 40 would take days.
    const output = { items: [{ s: `${'a'.repeat(40)}c` }, { s: 'aaab' }] };
    const result = await mapInWorker(
      output,
      {
        searched: "$.items[?search(@.s, '(a+)+b')].s",
        matched: "$.items[?match(@.s, '(a+)+b')].s",
        none: "$.items[?match(@.s, '(a+)+')].s",
      },
      5000,
    );
    expect(result).toEqual({
      finished: true,
      variables: { searched: ['aaab'], matched: ['aaab'], none: [] },
    });
  }, 20_000);

  it('a pattern taken from the output itself runs on the same engine', async () => {
    const output = { pattern: '(a+)+b', items: [{ s: `${'a'.repeat(40)}c` }, { s: 'ab' }] };
    const result = await mapInWorker(output, { hits: '$.items[?search(@.s, $.pattern)].s' }, 5000);
    expect(result).toEqual({ finished: true, variables: { hits: ['ab'] } });
  }, 20_000);
});

describe('the RFC 9535 regex functions keep their meaning', () => {
  const output = { items: [{ s: 'Abc' }, { s: 'a\nc' }, { s: 'xAbcx' }, { s: 5 }] };
  it('match is a full match, search a substring match, and "." never matches a line break', () => {
    expect(
      mapVariables(output, {
        full: "$.items[?match(@.s, 'A.c')].s",
        part: "$.items[?search(@.s, 'A.c')].s",
        dot: "$.items[?match(@.s, 'a.c')].s",
        classes: "$.items[?match(@.s, '[A-Z]\\\\p{Ll}+')].s",
      }),
    ).toEqual({ full: ['Abc'], part: ['Abc', 'xAbcx'], dot: [], classes: ['Abc'] });
  });
  it('an invalid pattern matches nothing rather than throwing', () => {
    expect(mapVariables(output, { none: "$.items[?match(@.s, '(unclosed')].s" })).toEqual({ none: [] });
  });
});

describe('variable names cannot reach the prototype', () => {
  it('`__proto__` and `constructor` are ordinary variables of a null-prototype object', () => {
    const mapping = JSON.parse('{"__proto__": "$.polluted", "constructor": "$.name"}') as Record<
      string,
      string
    >;
    const variables = mapVariables({ polluted: { isAdmin: true }, name: 'x' }, mapping);
    expect(Object.getPrototypeOf(variables)).toBeNull();
    expect(Object.hasOwn(variables, '__proto__')).toBe(true);
    expect((variables as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(variables.constructor).toBe('x');
    expect(JSON.parse(JSON.stringify(variables))).toEqual(
      JSON.parse('{"__proto__":{"isAdmin":true},"constructor":"x"}'),
    );
  });
});
