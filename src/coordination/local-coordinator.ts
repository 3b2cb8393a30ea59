import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../model/clock.js';
import { DEFAULT_TENANT, type TenantId } from '../model/tenant-id.js';
import { MemoryDedupeStore } from '../store/memory/memory-dedupe-store.js';
import { getOrCreate } from '../values/get-or-create.js';
import type {
  CoordinationStatus,
  Coordinator,
  HeldLock,
  QuotaObservation,
  QuotaVerdict,
} from './coordinator.js';
import { ForwardedDedupe } from './forwarded-dedupe.js';
import {
  IN_FLIGHT_EXPIRY_MS,
  observeIntoWindow,
  type QuotaWindowState,
  takeFromWindows,
} from './quota-rules.js';

interface Expiring {
  value: string;
  expiresAt: number;
}

/**
 * The in-process coordinator, the default: every rule holds among the
 * invocations of one process, exactly as without coordination. Locks,
 * records and counters live in this process's memory, timed by the real
 * clock (a lock's TTL is real time whatever clock the runtime uses).
 */
export class LocalCoordinator extends ForwardedDedupe implements Coordinator {
  readonly mode = 'local' as const;
  private readonly values = new Map<string, Expiring>();
  private readonly quotas = new Map<string, { windows: Map<string, QuotaWindowState>; inFlight: number[] }>();
  protected readonly records: MemoryDedupeStore;
  private readonly tenants = new Map<TenantId, LocalCoordinator>();

  constructor(private readonly timer: Clock = systemClock) {
    super();
    this.records = new MemoryDedupeStore(timer);
  }

  private live(key: string): string | undefined {
    const found = this.values.get(key);
    if (found && found.expiresAt <= this.timer.now()) this.values.delete(key);
    return this.values.get(key)?.value;
  }

  private keep(key: string, value: string, ttlMs: number): void {
    this.values.set(key, { value, expiresAt: this.timer.now() + ttlMs });
  }

  async tryLock(name: string, ttlMs: number): Promise<HeldLock | undefined> {
    const key = `lock:${name}`;
    if (this.live(key) !== undefined) return undefined;
    const token = randomBytes(16).toString('hex');
    this.keep(key, token, ttlMs);
    return { name, token };
  }

  async extendLock(lock: HeldLock, ttlMs: number): Promise<boolean> {
    const key = `lock:${lock.name}`;
    if (this.live(key) !== lock.token) return false;
    this.keep(key, lock.token, ttlMs);
    return true;
  }

  async releaseLock(lock: HeldLock): Promise<boolean> {
    const key = `lock:${lock.name}`;
    if (this.live(key) !== lock.token) return false;
    return this.values.delete(key);
  }

  /** The windows of a scope and the real send times of its requests in flight. */
  private quota(scope: string) {
    const found = getOrCreate(this.quotas, scope, () => ({
      windows: new Map<string, QuotaWindowState>(),
      inFlight: [],
    }));
    const oldest = Date.now() - IN_FLIGHT_EXPIRY_MS;
    found.inFlight = found.inFlight.filter((sentAt) => sentAt > oldest);
    return found;
  }

  async takeQuota(scope: string, now: number): Promise<QuotaVerdict> {
    const quota = this.quota(scope);
    const verdict = takeFromWindows(quota.windows, quota.inFlight.length, now);
    if (verdict.allowed) quota.inFlight.push(Date.now());
    return verdict;
  }

  async observeQuota(scope: string, windows: QuotaObservation[], now: number, settles: boolean) {
    const quota = this.quota(scope);
    if (settles) quota.inFlight.shift();
    for (const window of windows) {
      const next = observeIntoWindow(quota.windows.get(window.name), window, now);
      if (next) quota.windows.set(window.name, next);
    }
  }

  async addWithinLimit(key: string, amount: number, limit: number, ttlMs: number) {
    const total = Number(this.live(`count:${key}`) ?? '0');
    if (amount > 0 && total + amount > limit) return { added: false, total };
    this.keep(`count:${key}`, String(total + amount), ttlMs);
    return { added: true, total: total + amount };
  }

  async getValue(key: string): Promise<string | undefined> {
    return this.live(`kv:${key}`);
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    this.keep(`kv:${key}`, value, ttlMs);
  }

  async compareAndSet(key: string, expected: string | undefined, next: string, ttlMs: number) {
    if (this.live(`kv:${key}`) !== expected) return false;
    this.keep(`kv:${key}`, next, ttlMs);
    return true;
  }

  /** A coordinator of its own per tenant: nothing in this process's memory is shared between two. */
  forTenant(tenant: TenantId): LocalCoordinator {
    if (tenant === DEFAULT_TENANT) return this;
    return getOrCreate(this.tenants, tenant, () => new LocalCoordinator(this.timer));
  }

  async status(): Promise<CoordinationStatus> {
    return {
      mode: 'local',
      reachable: true,
      where: 'this process',
      detail: 'locks, quotas and dedupe hold within one process; set TOOLSTEPS_REDIS_URL to share them',
    };
  }

  async close(): Promise<void> {}
}
