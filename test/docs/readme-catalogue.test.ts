import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * README's "What is in the box" is the catalogue at a glance, so it is held
 * to `manifest.json` (itself held to the registry by its staleness test):
 * one row per integration, with its connection kind, its beta status, and
 * its step and trigger counts, the steps split by access. A step or trigger
 * added or removed fails here until the table says so; the words of each
 * row stay hand-written.
 */

interface Manifest {
  integrations: { id: string; status: string; connection: { kind: string } }[];
  steps: { integration: string; access: string }[];
  triggers: { integration: string }[];
}

const manifest = JSON.parse(readFileSync('manifest.json', 'utf8')) as Manifest;
const readme = readFileSync('README.md', 'utf8');
const ACCESS = ['read', 'write', 'destructive'] as const;
/** How the table words each connection kind (`connectionKinds` in the library). */
const CONNECTION: Record<string, string> = {
  oauth2: 'OAuth 2, refreshed',
  oauth2_no_refresh: 'OAuth 2',
  api_key: 'API key',
};

/** The section's text, from its heading to the next one. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const next = readme.indexOf('\n## ', start + heading.length + 1);
  return readme.slice(start, next < 0 ? undefined : next);
}

/** The first table of `text` as records keyed by its header cells. */
function table(text: string): Record<string, string>[] {
  const rows = text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
  const [header = [], , ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])));
}

/** What the table should say of one integration, from the manifest. */
function expected(id: string) {
  const steps = manifest.steps.filter((step) => step.integration === id);
  const byAccess = ACCESS.map(
    (access) => [access, steps.filter((step) => step.access === access).length] as const,
  );
  return {
    steps: `${steps.length}: ${byAccess
      .filter(([, count]) => count > 0)
      .map(([access, count]) => `${count} ${access}`)
      .join(', ')}`,
    triggers: String(manifest.triggers.filter((trigger) => trigger.integration === id).length),
  };
}

const box = section('## What is in the box');
const rows = table(box);
const rowOf = (id: string) => rows.find((row) => (row.Integration ?? '').startsWith(`\`${id}\``));

describe("README's catalogue", () => {
  it('has one row per integration of the manifest, and no other', () => {
    const listed = rows.map((row) => /^`([^`]+)`/.exec(row.Integration ?? '')?.[1]);
    expect(listed).toEqual(manifest.integrations.map((integration) => integration.id));
  });

  it.each(manifest.integrations.map((integration) => [integration.id, integration] as const))(
    '%s: its steps by access and its triggers as the manifest counts them, its connection and status',
    (id, integration) => {
      const row = rowOf(id) ?? {};
      const want = expected(id);
      expect(row.Steps).toBe(want.steps);
      const [count, names = ''] = (row.Triggers ?? '').split(':');
      expect(count).toBe(want.triggers);
      expect(names.split(',').filter((name) => name.trim() !== '').length).toBe(Number(want.triggers));
      expect(row.Connection).toBe(CONNECTION[integration.connection.kind]);
      expect((row.Integration ?? '').includes('beta')).toBe(integration.status === 'beta');
    },
  );

  it('says how many integrations, steps and triggers there are in all', () => {
    const counts = /^(\w+) integrations, (\d+) steps and (\d+) triggers/m.exec(box);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect([counts?.[1]?.toLowerCase(), Number(counts?.[2]), Number(counts?.[3])]).toEqual([
      words[manifest.integrations.length] ?? String(manifest.integrations.length),
      manifest.steps.length,
      manifest.triggers.length,
    ]);
  });
});
