import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { StampedFileCache } from '../../disk/stamped-file-cache.js';
import { InputError } from '../../errors/index.js';
import { checkSubscription } from '../../model/check-subscription.js';
import type { Clock } from '../../model/clock.js';
import { Subscription, subscriptionIdPattern } from '../../model/subscription.js';
import { copyRecord } from '../../values/copy-record.js';
import { KeyedMutex } from '../../values/keyed-mutex.js';
import { LockedRecordStore } from '../locked-record-store.js';
import type { SubscriptionStore } from '../subscription-store.js';
import { defaultToolstepsHome } from './file-connection-store.js';

const DeliveryRecord = z.object({ lastDeliveryAt: z.number().int() });

/**
 * A small local file's text, read synchronously: the intake reads its
 * subscription on every delivery until the file has settled (see
 * StampedFileCache), and a promise read costs many times the CPU of the read.
 */
function readTextNow(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
}

/**
 * One JSON file per subscription under `<home>/subscriptions` (next to
 * `<home>/connections`), mode 0600 in a 0700 directory, written atomically.
 * The time of the last delivery lives in its own `<id>.delivery.json`, so
 * the intake of a running `listen` never overwrites a change a command made.
 * A subscription read once is kept while its file's stamp stays the same
 * (`StampedFileCache`): the intake reads one on every delivery, and a
 * command's change (another process) is still seen on the next.
 */
export class FileSubscriptionStore extends LockedRecordStore<Subscription> implements SubscriptionStore {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();
  private readonly cache: StampedFileCache<Subscription>;
  /** The text each file held when last parsed, and what it parsed to. */
  private readonly lastParsed = new Map<string, { text: string; record: Subscription }>();

  /** `clock`: what a file's last change is read against (see StampedFileCache); default the system clock. */
  constructor(home: string = defaultToolstepsHome(), options: { clock?: Pick<Clock, 'now'> } = {}) {
    super({ noun: 'subscription', check: checkSubscription });
    this.directory = path.join(home, 'subscriptions');
    const clock = options.clock ?? { now: () => Date.now() };
    this.cache = new StampedFileCache(() => clock.now());
  }

  private fileFor(id: string, suffix = '.json'): string {
    if (!subscriptionIdPattern.test(id)) {
      throw new InputError(`Invalid subscription id "${id}".`, [
        { path: 'id', message: 'sub_ followed by letters and digits' },
      ]);
    }
    return path.join(this.directory, `${id}${suffix}`);
  }

  private async readJson(file: string): Promise<unknown> {
    try {
      return JSON.parse(await fs.readFile(file, 'utf8'));
    } catch (error) {
      if (isMissingFile(error)) return undefined;
      throw error;
    }
  }

  async getWithoutDeliveryTime(id: string): Promise<Subscription | undefined> {
    const file = this.fileFor(id);
    return this.cache.read(file, async () => {
      const text = readTextNow(file);
      if (text === undefined) return undefined;
      // The same bytes parse to the same record: a file still settling is read on every delivery, not parsed again.
      const last = this.lastParsed.get(file);
      if (last?.text === text) return copyRecord(last.record);
      const record = Subscription.parse(JSON.parse(text));
      this.lastParsed.set(file, { text, record: copyRecord(record) });
      return record;
    });
  }

  async get(id: string): Promise<Subscription | undefined> {
    const subscription = await this.getWithoutDeliveryTime(id);
    if (!subscription) return undefined;
    const delivery = DeliveryRecord.safeParse(await this.readJson(this.fileFor(id, '.delivery.json')));
    if (delivery.success) subscription.lastDeliveryAt = delivery.data.lastDeliveryAt;
    return subscription;
  }

  async list(): Promise<Subscription[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const ids = names
      .filter((name) => name.endsWith('.json') && !name.endsWith('.delivery.json'))
      .map((name) => name.slice(0, -5))
      .filter((id) => subscriptionIdPattern.test(id));
    const found = await Promise.all(ids.sort().map((id) => this.get(id)));
    return found.filter((item): item is Subscription => item !== undefined);
  }

  protected async write(subscription: Subscription): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const { lastDeliveryAt: _kept, ...record } = subscription;
    await writeFileAtomic(this.fileFor(subscription.id), `${JSON.stringify(record, null, 2)}\n`);
    this.cache.forget(this.fileFor(subscription.id));
  }

  protected async delete(id: string): Promise<boolean> {
    await fs.rm(this.fileFor(id, '.delivery.json'), { force: true });
    this.cache.forget(this.fileFor(id));
    return unlinkIfPresent(this.fileFor(id));
  }

  protected lock<T>(id: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(id, work);
  }

  async recordDelivery(id: string, at: number): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fileFor(id, '.delivery.json'), `${JSON.stringify({ lastDeliveryAt: at })}\n`);
  }
}
