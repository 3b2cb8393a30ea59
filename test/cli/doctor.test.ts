import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCoordinationMode } from '../../cli/doctor/coordination-mode.js';
import { checkNodeVersion } from '../../cli/doctor/node-version.js';
import { checkPlan } from '../../cli/doctor/plan.js';
import { checkProxySettings } from '../../cli/doctor/proxy-settings.js';
import { addSandboxTicketing, cli, useCliWorld } from './cli-harness.js';

interface Check {
  name: string;
  status: string;
  summary: string;
  details: string[];
}

const world = useCliWorld('toolsteps-doctor-', {
  env: ['TS_DOCTOR_TOKEN', 'TOOLSTEPS_PLAN', 'TOOLSTEPS_REDIS_URL'],
});
const doctor = async () => {
  const result = await cli('doctor', '--json');
  return { code: result.code, checks: (JSON.parse(result.out) as { checks: Check[] }).checks };
};
const named = (checks: Check[], name: string) => checks.find((check) => check.name === name)!;

describe('toolsteps doctor', () => {
  it('on a fresh machine: every check present, in order, and exit 0', async () => {
    const { code, checks } = await doctor();
    expect(code).toBe(0);
    expect(checks.map((check) => check.name)).toEqual([
      'node',
      'store',
      'connections',
      'revocations',
      'proxy',
      'coordination',
      'database',
      'plan',
    ]);
    expect(named(checks, 'node').status).toBe('ok');
    expect(named(checks, 'coordination').summary).toMatch(/^single process \(file store\)/);
    expect(named(checks, 'plan').summary).toMatch(
      /^enterprise \(default; set TOOLSTEPS_PLAN\): steps and triggers/,
    );
    const human = await cli('doctor');
    expect(human.out).toMatch(/^ok {4}node {10}Node \d+\.\d+\.\d+/m);
  });

  it('names each connection with its token state, and fails for an expired one nothing can refresh', async () => {
    expect(
      (await addSandboxTicketing(world.sandbox, 'fresh', 'TS_DOCTOR_TOKEN', '--expires-in', '3600')).code,
    ).toBe(0);
    let { code, checks } = await doctor();
    expect(code).toBe(0);
    expect(named(checks, 'connections').details[0]).toMatch(
      // A token nothing can renew, ending within the keep-alive window: expiring, in the one health vocabulary.
      /^fresh \(ticketing\): expiring \(the token ends .*\), ok \(expires .*\), not refreshable$/,
    );
    // Age the stored token past its expiry, as time would.
    const file = path.join(world.home, 'connections', 'fresh.json');
    const stored = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...stored, expiresAt: Date.now() - 1000 }), { mode: 0o600 });
    ({ code, checks } = await doctor());
    expect(code).toBe(1);
    expect(named(checks, 'connections')).toMatchObject({ status: 'fail' });
    expect(named(checks, 'connections').details[0]).toContain('expired');
    expect(named(checks, 'connections').details[0]).toContain(
      'toolsteps connect ticketing --id fresh --force',
    );
    expect(JSON.stringify(checks)).not.toContain(process.env.TS_DOCTOR_TOKEN);
    await cli('connections', 'remove', 'fresh');
  });

  it('fails when the store or a file in it is open to other users, naming each', async () => {
    await mkdir(path.join(world.home, 'subscriptions'), { recursive: true, mode: 0o700 });
    const loose = path.join(world.home, 'subscriptions', 'sub_loose.json');
    await writeFile(loose, '{}', { mode: 0o644 });
    await chmod(loose, 0o644);
    const { code, checks } = await doctor();
    expect(code).toBe(1);
    expect(named(checks, 'store')).toMatchObject({
      status: 'fail',
      details: [`${loose} is 644, expected 600`],
    });
    await chmod(loose, 0o600);
    expect(named((await doctor()).checks, 'store')).toMatchObject({
      status: 'ok',
      summary: `${world.home}: folders 0700, files 0600`,
    });
  });

  it('reads TOOLSTEPS_PLAN: below Enterprise, triggers are not available (a warning, not a failure)', async () => {
    process.env.TOOLSTEPS_PLAN = 'team';
    const { code, checks } = await doctor();
    delete process.env.TOOLSTEPS_PLAN;
    expect(code).toBe(0);
    expect(named(checks, 'plan')).toMatchObject({
      status: 'warn',
      summary: 'team (TOOLSTEPS_PLAN): steps only; triggers need the Enterprise plan',
    });
  });
});

describe('doctor checks, one file each', () => {
  it('node: below the engines floor fails, an untested major warns', () => {
    expect(checkNodeVersion('18.20.0', '20.18.1').status).toBe('fail');
    expect(checkNodeVersion('20.18.0', '20.18.1').status).toBe('fail');
    expect(checkNodeVersion('20.18.1', '20.18.1').status).toBe('ok');
    expect(checkNodeVersion('22.3.0', '20.18.1').status).toBe('ok');
    expect(checkNodeVersion('25.0.0', '20.18.1').status).toBe('warn');
  });

  it('proxy: names the variables set, never a password in a proxy URL', () => {
    const check = checkProxySettings({
      HTTPS_PROXY: 'http://alice:s3cret-pass@proxy.example:3128',
      NO_PROXY: 'internal.example',
    });
    expect(check.summary).toContain('go through the proxy');
    expect(check.details).toEqual(['HTTPS_PROXY=http://***@proxy.example:3128', 'NO_PROXY=internal.example']);
    expect(JSON.stringify(check)).not.toContain('s3cret-pass');
    expect(checkProxySettings({}).summary).toBe('no proxy: requests go straight to the providers');
  });

  it('coordination: the file store without TOOLSTEPS_REDIS_URL; with it, whether Redis answers, never its password', async () => {
    const down = await checkCoordinationMode({ TOOLSTEPS_REDIS_URL: 'redis://:hunter2@127.0.0.1:1/0' });
    expect(down).toMatchObject({ status: 'fail', summary: expect.stringContaining('does not answer') });
    expect(down.details[0]).toContain('TOOLSTEPS_REDIS_URL is set');
    expect(JSON.stringify(down)).not.toContain('hunter2');
    expect((await checkCoordinationMode({})).details).toEqual(['TOOLSTEPS_REDIS_URL is not set']);
  });

  it('plan: Enterprise by default', () => {
    expect(checkPlan({}).status).toBe('ok');
    expect(checkPlan({ TOOLSTEPS_PLAN: 'Enterprise' }).status).toBe('ok');
  });
});
