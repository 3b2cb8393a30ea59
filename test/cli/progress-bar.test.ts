import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration, progressBar } from '../../cli/progress-bar.js';
import { CONTACT_DATA_SANDBOX_KEY, type Sandbox } from '../../sandbox/index.js';
import { addConnection, closeCliWorld, openCliWorld, runStep } from './cli-harness.js';

/** A stream that records what was drawn, a terminal or not as the test says. */
function recorder() {
  const chunks: string[] = [];
  return {
    chunks,
    stream: { write: (chunk: string) => chunks.push(chunk) > 0 } as unknown as NodeJS.WriteStream,
  };
}

describe('progressBar', () => {
  it('on a terminal: the bar, records done of all, the percentage and an ETA from the rate so far', () => {
    let now = 1_000;
    const { chunks, stream } = recorder();
    const bar = progressBar(stream, { isTTY: true, now: () => now, width: 10 });
    bar.update(0, 300);
    now += 10_000;
    bar.update(100, 300);
    expect(chunks.at(-1)).toBe('\r[###.......] 100/300 records 33%  ETA 0:20\x1b[K');
    now += 20_000;
    bar.update(300, 300);
    expect(chunks.at(-1)).toBe('\r[##########] 300/300 records 100%\x1b[K');
    bar.done();
    expect(chunks.at(-1)).toBe('\n');
  });

  it('piped (not a terminal): draws nothing at all', () => {
    const { chunks, stream } = recorder();
    const bar = progressBar(stream, { isTTY: false });
    bar.update(0, 300);
    bar.update(300, 300);
    bar.done();
    expect(chunks).toEqual([]);
  });

  it('formats an ETA as m:ss or h:mm:ss', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_726_000)).toBe('1:02:06');
  });
});

describe('toolsteps run shows the bar for a bulk run on a terminal only', () => {
  let home: string;
  let sandbox: Sandbox;
  const contacts = Array.from({ length: 30 }, (_, index) => ({ email: `nobody${index}@unknown.example` }));

  beforeAll(async () => {
    ({ home, sandbox } = await openCliWorld('toolsteps-cli-progress-'));
    const key = { env: 'TS_PROGRESS_KEY', value: CONTACT_DATA_SANDBOX_KEY, flag: '--api-key-env' as const };
    const added = await addConnection(
      'contact_data',
      'lusha',
      key,
      '--base-url',
      sandbox.baseUrl('contact-data'),
    );
    expect(added.code).toBe(0);
  });
  afterAll(() => closeCliWorld({ home, sandbox }, 'TS_PROGRESS_KEY'));

  /** Runs the bulk step with stderr claiming (or not) to be a terminal. */
  async function bulkRun(tty: boolean) {
    const had = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true });
    try {
      return await runStep(
        'contact_data.enrich_contacts',
        'lusha',
        { contacts, batch_size: 10, concurrency: 1 },
        '--json',
      );
    } finally {
      if (had) Object.defineProperty(process.stderr, 'isTTY', had);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
    }
  }

  it('a terminal sees records counted up to all 30, and stdout stays one JSON document', async () => {
    const result = await bulkRun(true);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).output.summary).toMatchObject({ records: 30, no_match: 30 });
    expect(result.err).toContain('10/30 records 33%');
    expect(result.err).toContain('30/30 records 100%');
  });

  it('piped, nothing extra is written', async () => {
    const result = await bulkRun(false);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
  });
});
