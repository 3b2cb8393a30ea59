import { randomBytes } from 'node:crypto';
import type { ClaimOutcome, DedupeStore } from '../dedupe-store.js';
import type { RedisHandle } from './redis-handle.js';

const newToken = () => randomBytes(16).toString('hex');

/**
 * Webhook dedupe and idempotency marks in Redis: each operation one atomic
 * command or script on `<prefix>:once:<key>`, so every worker sharing the
 * Redis agrees which delivery runs. The coordinator answers as a dedupe
 * store through one of these.
 */
export class RedisDedupeStore implements DedupeStore {
  constructor(private readonly redis: RedisHandle) {}

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    const token = newToken();
    const outcome = await this.redis.script('tsClaim', this.redis.key('once', key), token, leaseMs);
    if (outcome === 'claimed') return { status: 'claimed', token };
    return { status: outcome === 'done' ? 'done' : 'in_flight' };
  }

  async renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    return (await this.redis.script('tsRenewClaim', this.redis.key('once', key), token, leaseMs)) === 1;
  }

  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    await this.redis.client.set(this.redis.key('once', key), `d:${token}`, 'PX', ttlMs);
  }

  async release(key: string, token: string): Promise<void> {
    await this.redis.script('tsReleaseClaim', this.redis.key('once', key), token);
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.script('tsMarkOnce', this.redis.key('once', key), newToken(), ttlMs)) === 1;
  }
}
