import type { Clock } from '../model/clock.js';

/** Most answers one runtime keeps; the oldest goes first, so a long-lived worker's memory stays bounded. */
export const MAX_CACHED_ANSWERS = 1000;

/**
 * Answers kept for a short time, by key, on the runtime's clock: options
 * pages and per-account schemas, so a form that asks again as a person types
 * does not spend the provider's rate limit. A failure is never kept. In
 * process only: each worker asks the provider itself, at most once a TTL.
 */
export class AnswerCache {
  private readonly answers = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = MAX_CACHED_ANSWERS,
  ) {}

  /** The kept answer, or what `load` answers now (kept for `ttlMs`). Callers of one key at once share one load. */
  async get<Value>(key: string, ttlMs: number, load: () => Promise<Value>): Promise<Value> {
    const now = this.clock.now();
    const kept = this.answers.get(key);
    if (kept && kept.expiresAt > now) return (await kept.value) as Value;
    const pending = load();
    this.keep(key, pending, now + ttlMs);
    try {
      return await pending;
    } catch (error) {
      if (this.answers.get(key)?.value === pending) this.answers.delete(key);
      throw error;
    }
  }

  private keep(key: string, value: unknown, expiresAt: number): void {
    this.answers.delete(key);
    this.answers.set(key, { value, expiresAt });
    while (this.answers.size > this.maxEntries) {
      const oldest = this.answers.keys().next().value as string;
      this.answers.delete(oldest);
    }
  }

  /** Forgets every answer (a connection changed, a test starts over). */
  clear(): void {
    this.answers.clear();
  }
}
