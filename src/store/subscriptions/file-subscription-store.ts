import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { KeyedMutex } from '../../coordination/keyed-mutex.js';
import { InputError } from '../../errors/index.js';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../files/atomic-write.js';
import { checkSubscription } from '../../triggers/intake/check-subscription.js';
import { Subscription, subscriptionIdPattern } from '../../triggers/subscription.js';
import { defaultToolstepsHome } from '../connections/file-connection-store.js';
import { LockedRecordStore } from '../locked-record-store.js';
import type { SubscriptionStore } from './subscription-store.js';

const DeliveryRecord = z.object({ lastDeliveryAt: z.number().int() });

/**
 * One JSON file per subscription under `<home>/subscriptions` (next to
 * `<home>/connections`), mode 0600 in a 0700 directory, written atomically.
 * The time of the last delivery lives in its own `<id>.delivery.json`, so
 * the intake of a running `listen` never overwrites a change a command made.
 */
export class FileSubscriptionStore extends LockedRecordStore<Subscription> implements SubscriptionStore {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();

  constructor(home: string = defaultToolstepsHome()) {
    super({ noun: 'subscription', check: checkSubscription });
    this.directory = path.join(home, 'subscriptions');
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

  async get(id: string): Promise<Subscription | undefined> {
    const stored = await this.readJson(this.fileFor(id));
    if (stored === undefined) return undefined;
    const subscription = Subscription.parse(stored);
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
  }

  protected async delete(id: string): Promise<boolean> {
    await fs.rm(this.fileFor(id, '.delivery.json'), { force: true });
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
