import { randomBytes } from 'node:crypto';
import { TurnBatch } from '../../values/turn-batch.js';
import type { ClaimOutcome, DedupeStore } from '../dedupe-store.js';
import type { RedisHandle } from './redis-handle.js';

const newToken = () => randomBytes(16).toString('hex');

interface Claim {
  key: string;
  token: string;
  leaseMs: number;
}

interface DoneMark {
  key: string;
  token: string;
  ttlMs: number;
}

/** One batched script's arguments: its key count, the keys, then two values per key. */
function scriptArguments<T extends { key: string }>(
  items: T[],
  values: (item: T) => [string, number],
): (string | number)[] {
  return [items.length, ...items.map((item) => item.key), ...items.flatMap(values)];
}

/**
 * Webhook dedupe and idempotency marks in Redis: each operation one atomic
 * command or script on `<prefix>:once:<key>`, so every worker sharing the
 * Redis agrees which delivery runs. The coordinator answers as a dedupe
 * store through one of these. The claims of one turn of the event loop go
 * out as one script, and so do its done marks (`TurnBatch`): an intake
 * taking many deliveries at once makes one round trip per turn for them,
 * not one per delivery, and Redis runs one command.
 */
export class RedisDedupeStore implements DedupeStore {
  private readonly claims = new TurnBatch<Claim, unknown>(async (batch) => {
    const args = scriptArguments(batch, (claim) => [claim.token, claim.leaseMs]);
    return (await this.redis.script('tsClaimMany', ...args)) as unknown[];
  });

  private readonly doneMarks = new TurnBatch<DoneMark, void>(async (batch) => {
    await this.redis.script('tsCompleteMany', ...scriptArguments(batch, (mark) => [mark.token, mark.ttlMs]));
    return [];
  });

  constructor(private readonly redis: RedisHandle) {}

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    const token = newToken();
    const outcome = await this.claims.add({ key: this.redis.key('once', key), token, leaseMs });
    if (outcome === 'claimed') return { status: 'claimed', token };
    return { status: outcome === 'done' ? 'done' : 'in_flight' };
  }

  async renew(key: string, token: string, leaseMs: number): Promise<boolean> {
    return (await this.redis.script('tsRenewClaim', this.redis.key('once', key), token, leaseMs)) === 1;
  }

  async complete(key: string, token: string, ttlMs: number): Promise<void> {
    await this.doneMarks.add({ key: this.redis.key('once', key), token, ttlMs });
  }

  async release(key: string, token: string): Promise<void> {
    await this.redis.script('tsReleaseClaim', this.redis.key('once', key), token);
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.script('tsMarkOnce', this.redis.key('once', key), newToken(), ttlMs)) === 1;
  }
}
