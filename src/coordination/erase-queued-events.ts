import { DEFAULT_TENANT, type TenantId } from '../model/tenant-id.js';
import type { TriggerEvent } from '../model/trigger-event.js';
import { connectRedis } from '../peers/load-ioredis.js';
import { DEAD_EVENTS_QUEUE, EVENTS_QUEUE, loadBullmq } from './event-queue.js';
import { redisFailure } from './redis-failure.js';

/** Every state a job rests in; `active` is apart: a worker holds it. */
const RESTING = ['waiting', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'] as const;

/** Jobs read at once while looking for the tenant's. */
const PAGE = 500;

/** What erasing a tenant's queued events did: jobs deleted, and jobs a worker was running then (they finish). */
export interface QueuedEventErasure {
  removed: number;
  running: number;
}

type Job = import('bullmq').Job;

const tenantOf = (event: Partial<TriggerEvent> | undefined) => event?.tenant ?? DEFAULT_TENANT;

/** The event a job holds: the job's data on the events queue, `data.event` on the dead-letter queue. */
const eventOf = (job: Job, dead: boolean) =>
  (dead ? (job.data as { event?: TriggerEvent }).event : job.data) as Partial<TriggerEvent> | undefined;

async function eraseFrom(queue: import('bullmq').Queue, tenant: TenantId, dead: boolean) {
  const erased: QueuedEventErasure = { removed: 0, running: 0 };
  for (const state of [...RESTING, 'active'] as const) {
    // Removing shifts what follows, so each page is read again from where the kept jobs end.
    let kept = 0;
    for (;;) {
      const jobs = await queue.getJobs([state], kept, kept + PAGE - 1);
      const theirs = jobs.filter((job) => job && tenantOf(eventOf(job, dead)) === tenant);
      if (state === 'active') erased.running += theirs.length;
      else
        for (const job of theirs)
          await job.remove().then(
            () => (erased.removed += 1),
            () => undefined,
          );
      kept += jobs.length - (state === 'active' ? 0 : theirs.length);
      if (jobs.length < PAGE) break;
    }
  }
  return erased;
}

/**
 * Part of erasing a tenant when `listen --queue` is used: deletes every
 * event of the tenant the queue holds (waiting, delayed, retried, done, and
 * dead-lettered), since each carries the provider's payload, which is the
 * tenant's data. A job a worker is running cannot be taken from it: it is
 * counted as `running` and finishes (its tenant's records are gone, so it
 * can start nothing that needs a connection).
 * @throws NetworkError when Redis does not answer.
 */
export async function eraseQueuedEvents(options: {
  redisUrl: string;
  prefix?: string;
  tenant: TenantId;
}): Promise<QueuedEventErasure> {
  const { Queue } = await loadBullmq();
  const client = await connectRedis(options.redisUrl);
  const prefix = options.prefix ?? 'toolsteps';
  const queues = [EVENTS_QUEUE, DEAD_EVENTS_QUEUE].map(
    (name) => new Queue(name, { connection: client, prefix }),
  );
  try {
    const [live, dead] = await Promise.all(
      queues.map((queue, index) => eraseFrom(queue, options.tenant, index === 1)),
    );
    return { removed: live!.removed + dead!.removed, running: live!.running + dead!.running };
  } catch (error) {
    throw redisFailure(client, error);
  } finally {
    for (const queue of queues) await queue.close().catch(() => undefined);
    await client.quit().catch(() => client.disconnect());
  }
}
