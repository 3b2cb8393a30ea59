import nock from 'nock';
import { expect } from 'vitest';
import { ManualClock } from '../../src/model/clock.js';
import { Runtime } from '../../src/runtime/runtime.js';
import type { AnyStep } from '../../src/step/define-step.js';
import { nockedFetch } from './nocked-fetch.js';
import { PROBE, probeConnection } from './probe-transport.js';

/**
 * Writes that may have landed, on the probe's things (`/api/things`): a reset
 * is a request the provider may have acted on, and a create is found again by
 * its key (findThingByKey, beside the probe).
 */

/** A connection reset mid-request: the provider may have acted on it. */
export const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/** Runs `step` on the probe connection, on a fresh runtime whose retries do not jitter. */
export function invokeOnProbe<S extends AnyStep>(step: S, input: unknown) {
  const runtime = new Runtime({
    clock: new ManualClock(),
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
  });
  return runtime.invoke(step, { connection: probeConnection(), input });
}

/** A DELETE of thing `id` lost to a reset, and its replay answered 404: the thing is gone. */
export function lostDelete(id: number): nock.Scope {
  return nock(PROBE)
    .delete(`/api/things/${id}`)
    .replyWithError(reset())
    .delete(`/api/things/${id}`)
    .reply(404, {});
}

/** A create of `key` lost to a reset, then the look by key, which finds the thing `foundId` or nothing. */
export function lostCreate(key: string, foundId?: number): nock.Scope {
  return nock(PROBE)
    .post('/api/things')
    .replyWithError(reset())
    .get('/api/things')
    .query({ key })
    .reply(200, foundId === undefined ? [] : [{ id: foundId, key }]);
}

/** `step` creates `key`, the create is lost to a reset, and the look finds it as thing `id`: that thing is the output. */
export async function expectRecovered(step: AnyStep, key: string, id: number): Promise<void> {
  lostCreate(key, id);
  const result = await invokeOnProbe(step, { key });
  expect(result.output).toEqual({ thing: { id, key }, recovered: true });
}
