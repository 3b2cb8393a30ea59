import { describe, expect, it } from 'vitest';
import { MAX_TEXT_PER_CALL, MAX_TEXT_PER_EVENT } from '../../../steps/deployments/lib/build-events.js';
import { resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { deploymentsFixture, lines, newDeployment } from './deployments-fixture.js';

const scopedToApi = { constraints: { projects: ['api'] } };

describe('deployments.get_deployment', () => {
  const fx = useFixture(deploymentsFixture);

  it('reads the state as the build moves on, and maps id, state and url', async () => {
    const id = await newDeployment(fx);
    fx.clearWire();
    const queued = await fx.invoke('deployments.get_deployment', { deployment_id: id });
    expect(lines(fx.wire())).toEqual([`GET /v13/deployments/${id}`]);
    expect(queued.output.deployment).toMatchObject({ id, state: 'QUEUED', branch: 'main' });
    fx.clock.advance(60_000);
    const ready = await fx.invoke('deployments.get_deployment', { deployment_id: id });
    expect(ready.variables).toEqual({ deployment_id: id, state: 'READY', url: ready.output.deployment.url });
  });

  it('refuses a deployment of a project outside the scope, after the one read that tells its project', async () => {
    const id = await newDeployment(fx);
    fx.clearWire();
    await expect(
      fx.invoke('deployments.get_deployment', { deployment_id: id }, scopedToApi),
    ).rejects.toMatchObject({
      name: 'PermissionError',
      context: { allowedProjects: ['api'] },
    });
    expect(lines(fx.wire())).toEqual([
      `GET /v13/deployments/${id}`,
      expect.stringMatching(/^GET \/v9\/projects\//),
    ]);
  });
});

describe('deployments.get_deployment_events (build logs)', () => {
  const fx = useFixture(deploymentsFixture);

  it('reads a finished build log page by page with next_cursor, and nothing is lost or repeated', async () => {
    const id = await newDeployment(fx);
    fx.clock.advance(60_000);
    const texts: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await fx.invoke('deployments.get_deployment_events', {
        deployment_id: id,
        limit: 4,
        cursor,
      });
      expect(result.output.events.length).toBeLessThanOrEqual(4);
      texts.push(...result.output.events.map((event) => event.text));
      cursor = result.output.next_cursor ?? undefined;
      if (!result.output.has_more) break;
    }
    expect(texts[0]).toContain('Running build');
    expect(texts.at(-1)).toBe('Deployment completed');
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts).toHaveLength(14);
  });

  it('follows a running build: the cursor of the last call brings only the lines printed since', async () => {
    const id = await newDeployment(fx);
    fx.clock.advance(8_500);
    const early = await fx.invoke('deployments.get_deployment_events', { deployment_id: id });
    expect(early.output.events.at(-1)?.text).toBe('Running "npm run build"');
    expect(early.output.has_more).toBe(false);
    fx.clock.advance(60_000);
    const later = await fx.invoke('deployments.get_deployment_events', {
      deployment_id: id,
      cursor: early.output.next_cursor!,
    });
    expect(later.output.events[0]?.text).toBe('> build');
    expect(later.output.events.at(-1)?.text).toBe('Deployment completed');
  });

  it('tail gives the last lines of a failed build, where the error is, in log order', async () => {
    const id = await newDeployment(fx, { branch: 'broken' });
    fx.clock.advance(60_000);
    const result = await fx.invoke('deployments.get_deployment_events', {
      deployment_id: id,
      tail: true,
      limit: 3,
    });
    expect(result.output.events.map((event) => event.type)).toEqual(['stdout', 'stdout', 'stderr']);
    expect(result.output.events.at(-1)?.text).toContain('exited with 1');
    expect(fx.wire().at(-1)?.query.get('direction')).toBe('backward');
  });

  it(`is bounded: at most 100 events and ${MAX_TEXT_PER_CALL / 1024} KiB of text per call, each line cut at ${MAX_TEXT_PER_EVENT} characters`, async () => {
    const id = await newDeployment(fx);
    fx.sandbox.deployments.appendBuildLog(id, [
      'x'.repeat(100_000),
      ...Array.from({ length: 500 }, (_, index) => `line ${index}`),
    ]);
    fx.clock.advance(60_000);
    const first = await fx.invoke('deployments.get_deployment_events', { deployment_id: id });
    expect(first.output.events).toHaveLength(100);
    const long = first.output.events.find((event) => event.truncated);
    expect(long?.text).toHaveLength(MAX_TEXT_PER_EVENT);
    expect(first.output.has_more).toBe(true);

    fx.sandbox.deployments.appendBuildLog(
      id,
      Array.from({ length: 30 }, () => 'y'.repeat(3_000)),
    );
    let cursor = first.output.next_cursor!;
    let characters = 0;
    let pages = 0;
    for (; pages < 20; pages += 1) {
      const page = await fx.invoke('deployments.get_deployment_events', { deployment_id: id, cursor });
      const text = page.output.events.reduce((sum, event) => sum + event.text.length, 0);
      expect(text).toBeLessThanOrEqual(MAX_TEXT_PER_CALL);
      characters += text;
      cursor = page.output.next_cursor!;
      if (!page.output.has_more) break;
    }
    expect(characters).toBeGreaterThan(90_000);
  });

  it('refuses the logs of a deployment outside the scope without asking for them', async () => {
    const id = await newDeployment(fx);
    fx.clearWire();
    await expect(
      fx.invoke('deployments.get_deployment_events', { deployment_id: id }, scopedToApi),
    ).rejects.toMatchObject({ name: 'PermissionError' });
    expect(fx.wire().some((request) => request.path.endsWith('/events'))).toBe(false);
  });

  it('refuses tail with a cursor before sending anything', async () => {
    await fx.expectRefusedUnsent({ name: 'InputError' }, () =>
      fx.invokeUnchecked('deployments.get_deployment_events', {
        deployment_id: 'dpl_x',
        tail: true,
        cursor: '1:0',
      }),
    );
  });
});

describe('deployments.delete_deployment', () => {
  const fx = useFixture(deploymentsFixture);

  it('deletes with one DELETE, and the deployment is gone', async () => {
    const id = await newDeployment(fx);
    fx.clearWire();
    const result = await fx.invoke('deployments.delete_deployment', { deployment_id: id });
    expect(lines(fx.wire())).toEqual([`DELETE /v13/deployments/${id}`]);
    expect(result.output).toEqual({ deployment_id: id, deleted: true, already_done: false });
    expect(fx.sandbox.deployments.deployment(id)).toBeUndefined();
  });

  it('a lost answer is replayed once; the 404 that answers it means the first delete landed', async () => {
    const id = await newDeployment(fx);
    fx.clearWire();
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'DELETE' }));
    const result = await fx.invoke('deployments.delete_deployment', { deployment_id: id });
    expect(result.output).toEqual({ deployment_id: id, deleted: true, already_done: true });
    expect(lines(fx.wire())).toEqual([`DELETE /v13/deployments/${id}`, `DELETE /v13/deployments/${id}`]);
  });

  it('is declared destructive and idempotent', async () => {
    const step = fx.registry.requireStep('deployments.delete_deployment');
    expect([step.access, step.idempotent, step.onReplay]).toEqual(['destructive', true, 'gone_means_done']);
  });
});
