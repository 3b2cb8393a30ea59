import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addSandboxTicketing, cli, createTrigger, jsonError, runStep, useCliWorld } from './cli-harness.js';

// `toolsteps run` and `describe` take `id@major`: List Tickets majors 1 and 2 side by side against the
// sandbox; `manifest --check` fails on a breaking change without a new major.

const world = useCliWorld('toolsteps-cli-majors-', { env: ['TS_MAJORS_TOKEN'] });

const ticketIds = (out: string) =>
  (JSON.parse(out) as { output: { tickets: { id: number }[] } }).output.tickets
    .map((ticket) => ticket.id)
    .sort();

describe('toolsteps and step majors', () => {
  it('runs major 1 and major 2 side by side with their own inputs, to the same tickets', async () => {
    expect((await addSandboxTicketing(world.sandbox, 'desk', 'TS_MAJORS_TOKEN')).code).toBe(0);
    const old = await runStep('ticketing.list_tickets@1', 'desk', { created_after: '2000-01-01' }, '--json');
    const latest = await runStep(
      'ticketing.list_tickets',
      'desk',
      { created: { after: '2000-01-01' } },
      '--json',
    );
    const pinned = await runStep(
      'ticketing.list_tickets@2',
      'desk',
      { created: { after: '2000-01-01' } },
      '--json',
    );
    expect([old.code, latest.code, pinned.code]).toEqual([0, 0, 0]);
    expect(ticketIds(old.out).length).toBeGreaterThan(0);
    expect(ticketIds(old.out)).toEqual(ticketIds(latest.out));
    expect(ticketIds(pinned.out)).toEqual(ticketIds(latest.out));
    const mixed = await runStep(
      'ticketing.list_tickets@2',
      'desk',
      { created_after: '2000-01-01' },
      '--json',
    );
    expect([mixed.code, jsonError(mixed).code]).toEqual([2, 'input_invalid']);
  });

  it('describe shows the version, the served majors and a deprecated major’s replacement and end date', async () => {
    const old = await cli('describe', 'ticketing.list_tickets@1');
    expect(old.code).toBe(0);
    expect(old.out).toContain(
      'version 1.0 (ticketing.list_tickets@1); served majors: ticketing.list_tickets@2, ticketing.list_tickets@1',
    );
    expect(old.out).toContain('Deprecated: served until 2027-06-30; use ticketing.list_tickets@2 instead.');
    expect(old.out).toContain('created_after');
    const json = JSON.parse((await cli('describe', 'ticketing.list_tickets@1', '--json')).out);
    expect(json).toMatchObject({
      version: '1.0',
      deprecated: { replacement: 'ticketing.list_tickets@2', endsOn: '2027-06-30' },
    });
    const latest = await cli('describe', 'ticketing.list_tickets');
    expect(latest.out).toContain('version 2.0 (ticketing.list_tickets@2)');
    expect(latest.out).not.toContain('Deprecated');
  });

  it('refuses a major the step does not serve (exit 2), naming the ones it does', async () => {
    const result = await cli('describe', 'ticketing.list_tickets@3');
    expect(result.code).toBe(2);
    expect(result.err).toContain('ticketing.list_tickets@2, ticketing.list_tickets@1');
  });

  it('manifest --check passes against the kept release and fails, naming step, path and kind, on a breaking change', async () => {
    const passed = await cli('manifest', '--check');
    expect(passed.code).toBe(0);
    expect(passed.out).toContain('Compatible with');
    // A release whose Get Ticket Info had an output path the current one lacks: a removed path, major unchanged.
    const released = JSON.parse(await readFile('contracts/released-manifest.json', 'utf8'));
    const step = released.steps.find((entry: { id: string }) => entry.id === 'ticketing.get_ticket_info');
    step.output.properties.sla_breached = { type: 'boolean' };
    step.output.required.push('sla_breached');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-released-'));
    try {
      const file = path.join(folder, 'released.json');
      await writeFile(file, JSON.stringify(released));
      const failed = await cli('manifest', '--check', '--released', file);
      expect(failed.code).toBe(1);
      expect(failed.err).toContain('step ticketing.get_ticket_info@1: output.sla_breached: path_removed');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('upgrade is a dry run that says which subscriptions follow the latest major; --apply pins them', async () => {
    const target = 'https://agents.example.com';
    process.env.TS_MAJORS_SECRET = 'whsec-majors-1';
    const secret = ['--manual', '--secret-env', 'TS_MAJORS_SECRET', '--json'];
    const bare = JSON.parse((await createTrigger('ticketing.ticket_created', 'desk', target, ...secret)).out);
    const pinned = JSON.parse(
      (await createTrigger('ticketing.ticket_created@1', 'desk', target, ...secret)).out,
    );
    delete process.env.TS_MAJORS_SECRET;
    expect([bare.trigger, pinned.trigger]).toEqual([
      'ticketing.ticket_created',
      'ticketing.ticket_created@1',
    ]);
    const actionOf = (out: string, id: string) =>
      (
        JSON.parse(out) as { subscriptions: { subscription: string; action: string; to?: string }[] }
      ).subscriptions.find((entry) => entry.subscription === id);
    const dry = await cli('upgrade', '--json');
    expect(dry.code).toBe(0);
    expect(actionOf(dry.out, bare.id)).toMatchObject({ action: 'pin', to: 'ticketing.ticket_created@1' });
    expect(actionOf(dry.out, pinned.id)).toMatchObject({ action: 'current' });
    const listed = JSON.parse((await cli('subscriptions', '--json')).out) as {
      id: string;
      trigger: string;
    }[];
    expect(listed.find((entry) => entry.id === bare.id)?.trigger).toBe('ticketing.ticket_created');
    expect((await cli('upgrade', '--apply', '--json')).code).toBe(0);
    const after = JSON.parse((await cli('subscriptions', '--json')).out) as { id: string; trigger: string }[];
    expect(after.find((entry) => entry.id === bare.id)?.trigger).toBe('ticketing.ticket_created@1');
    expect(actionOf((await cli('upgrade', '--json')).out, bare.id)).toMatchObject({ action: 'current' });
  });
});
