import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startSandbox } from '../../sandbox/index.js';
import { type ExportedItem, privateDataFindings, sandboxPrivateValues } from './private-data-scan.js';

/**
 * Issue 39's scan over the whole suite: every span and metric the shared and
 * nock projects' files exported in-process (test/support/suite-telemetry-capture.ts)
 * is searched for every secret and personal value the sandbox seeds, and for
 * anything shaped like a token the sandbox issues or an email address, which
 * no attribute may hold whatever test made it (person ids are hashed).
 * Returns the findings (where, and what kind of value: never the value
 * itself) and a line that says what was searched.
 */

/** Access tokens, refresh tokens and codes as the sandbox's OAuth providers mint them (sandbox/oauth-provider.ts). */
const SANDBOX_TOKEN = /\b(?:tkt|vcl|vca)_[a-z]+_[A-Za-z0-9_-]{32}/;
const EMAIL_ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

async function capturedItems(folder: string): Promise<{ items: ExportedItem[]; processes: number }> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'));
  const items: ExportedItem[] = [];
  for (const name of files) {
    const text = await readFile(path.join(folder, name), 'utf8');
    for (const line of text.split('\n')) if (line) items.push(JSON.parse(line) as ExportedItem);
  }
  return { items, processes: files.length };
}

/** Findings of the shapes no export may hold: `where` and the shape, never the value itself. */
function shapeFindings(items: readonly ExportedItem[]): string[] {
  const findings: string[] = [];
  for (const item of items) {
    if (SANDBOX_TOKEN.test(item.text)) findings.push(`${item.where} holds a sandbox token`);
    if (EMAIL_ADDRESS.test(item.text)) findings.push(`${item.where} holds an email address`);
  }
  return findings;
}

export interface SuiteTelemetryScan {
  findings: string[];
  summary: string;
}

export async function scanSuiteTelemetry(folder: string): Promise<SuiteTelemetryScan> {
  const { items, processes } = await capturedItems(folder);
  // The seeded tickets and people as a fresh sandbox holds them (its seed does not depend on the run).
  const sandbox = await startSandbox();
  const values = sandboxPrivateValues(sandbox);
  await sandbox.close();
  const findings = [...new Set([...privateDataFindings(items, values), ...shapeFindings(items)])];
  const spans = items.filter((item) => item.where.startsWith('span ')).length;
  const summary =
    `telemetry scan: ${spans} spans and ${items.length - spans} metric exports from ${processes} processes, ` +
    `${values.length} private values and 2 shapes searched, ${findings.length} findings`;
  return { findings, summary };
}
