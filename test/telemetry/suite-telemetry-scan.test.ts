import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY, startSandbox } from '../../sandbox/index.js';
import { scanSuiteTelemetry } from '../support/suite-telemetry-scan.js';

/** The suite-wide scan (run by test/support/global-setup.ts when the run ends) finds what it must, and nothing in a clean export. */
let folder: string;
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function captured(...texts: unknown[]): string {
  folder = mkdtempSync(path.join(os.tmpdir(), 'scan-test-'));
  const lines = texts.map((text, index) =>
    JSON.stringify({ where: `span "s${index}"`, text: JSON.stringify(text) }),
  );
  writeFileSync(path.join(folder, '1.jsonl'), `${lines.join('\n')}\n`);
  return folder;
}

describe("the suite's telemetry scan", () => {
  it('passes a clean export and says what it searched', async () => {
    const scan = await scanSuiteTelemetry(
      captured({
        name: 'execute_tool ticketing.get_ticket_info',
        attributes: { 'url.template': '/api/v2/tickets/{id}.json' },
      }),
    );
    expect(scan.findings).toEqual([]);
    expect(scan.summary).toMatch(
      /^telemetry scan: 1 spans and 0 metric exports from 1 processes, \d+ private values/,
    );
  });

  it('finds a seeded key, a seeded ticket subject, a sandbox token and an email address, naming where but not the value', async () => {
    const sandbox = await startSandbox();
    const subject = [...sandbox.ticketing.account('acme').tickets.values()][0]!.subject;
    await sandbox.close();
    const token = `tkt_access_${'A'.repeat(32)}`;
    const scan = await scanSuiteTelemetry(
      captured(
        { attributes: { key: ANZ_DATA_SANDBOX_KEY } },
        { events: [{ name: 'x', attributes: { subject } }] },
        { attributes: { header: `Bearer ${token}` } },
        { attributes: { who: 'someone.else@example.org' } },
      ),
    );
    expect(scan.findings).toEqual([
      `span "s0" holds ${JSON.stringify(ANZ_DATA_SANDBOX_KEY)}`,
      `span "s1" holds ${JSON.stringify(subject)}`,
      'span "s2" holds a sandbox token',
      'span "s3" holds an email address',
    ]);
  });
});
