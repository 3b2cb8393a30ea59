import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../../src/model/clock.js';
import { WebhookFaults } from './webhook-faults.js';

/** One event for one webhook, as an emulator hands it over. */
export interface OutgoingWebhook {
  /** Emulator mount that sends it (`ticketing`, `deployments`), for fault rules and assertions. */
  source: string;
  webhookId: string;
  /** A loopback URL: emulators refuse to register any other. */
  url: string;
  eventId: string;
  eventType: string;
  /** The exact bytes sent, signed as they are. */
  body: string;
  /**
   * The provider's signature headers for `body` at `at` (ms of the sandbox
   * clock). `wrongSecret` signs with a secret the receiver does not know.
   */
  sign(body: string, at: number, wrongSecret: boolean): Record<string, string>;
}

/** One try at delivering a webhook, kept so a test can see the sandbox retried as the provider would. */
export interface DeliveryAttempt {
  at: number;
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why no answer came (refused connection, timeout). */
  error?: string;
}

/** A webhook the sandbox is sending or has sent, with every attempt at it. */
export interface Delivery extends OutgoingWebhook {
  id: number;
  state: 'pending' | 'delivered' | 'failed';
  /** When the next attempt is due, in ms of the sandbox clock. */
  dueAt: number;
  attempts: DeliveryAttempt[];
}

export interface WebhookDispatcherOptions {
  clock: Clock;
  /** The faults the sandbox's control endpoint arms; none when absent (an emulator run on its own). */
  faults?: WebhookFaults;
  /** Attempts per delivery before it is given up (default 5). */
  maxAttempts?: number;
  /** Wait before the second attempt; doubles after each failure (default 1 s of the sandbox clock). */
  firstRetryMs?: number;
  /** How long one attempt may take, in real ms (default 5 s). */
  timeoutMs?: number;
}

/**
 * Sends the emulators' webhook events over HTTP, at least once: a non-2xx
 * answer, a refused connection or a timeout is retried with exponential
 * backoff on the sandbox clock, up to `maxAttempts`. A timer sends what is
 * due (a manual clock makes retries wait for `advance`); tests can also call
 * `settle()` to send everything due now and wait for it.
 */
export class WebhookDispatcher {
  /** Every delivery since the last reset, oldest first, for assertions. */
  readonly deliveries: Delivery[] = [];
  private nextId = 1;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** Called before each pump: emulators whose state follows the clock announce what changed. */
  private readonly tickers: (() => void)[] = [];

  private readonly faults: WebhookFaults;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.faults = options.faults ?? new WebhookFaults();
  }

  /** Registers a state check to run before each send (a deployment finishing on the clock, say). */
  onTick(ticker: () => void): void {
    this.tickers.push(ticker);
  }

  /** Queues a webhook for delivery, applying any armed delay or duplicate fault; emulators call it when an event happens. */
  enqueue(webhook: OutgoingWebhook): Delivery {
    const now = this.options.clock.now();
    const held = this.faults.take('delay', webhook.source);
    const delivery: Delivery = {
      ...webhook,
      id: this.nextId++,
      state: 'pending',
      dueAt: now + (held?.ms ?? 0),
      attempts: [],
    };
    this.deliveries.push(delivery);
    // A duplicate is a second, independent delivery of the same event (same id, same body).
    if (this.faults.take('duplicate', webhook.source)) {
      this.deliveries.push({ ...delivery, id: this.nextId++, attempts: [] });
    }
    this.kick();
    return delivery;
  }

  /** Sends every pending delivery that is due now; resolves when those attempts have ended. */
  async settle(): Promise<void> {
    for (let round = 0; round < 100; round += 1) {
      this.sendDue();
      if (this.inFlight.size === 0) return;
      await Promise.all([...this.inFlight]);
    }
  }

  /** Deliveries not yet delivered or given up on, for a test waiting for the queue to drain. */
  pending(): Delivery[] {
    return this.deliveries.filter((delivery) => delivery.state === 'pending');
  }

  /** Starts the background pump (the sandbox server does, while it listens). */
  start(intervalMs = 20): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sendDue(), intervalMs);
    this.timer.unref();
  }

  /** Stops the pump and waits for attempts under way, so none lands after the test ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all([...this.inFlight]);
  }

  /** Forgets past deliveries, so a test's assertions see only its own. */
  reset(): void {
    this.deliveries.length = 0;
  }

  private kick(): void {
    if (this.timer) queueMicrotask(() => this.sendDue());
  }

  private sendDue(): void {
    for (const ticker of this.tickers) ticker();
    const now = this.options.clock.now();
    for (const delivery of this.deliveries) {
      if (delivery.state !== 'pending' || delivery.dueAt > now || this.busy.has(delivery.id)) continue;
      this.busy.add(delivery.id);
      const attempt = this.attempt(delivery).finally(() => {
        this.busy.delete(delivery.id);
        this.inFlight.delete(attempt);
      });
      this.inFlight.add(attempt);
    }
  }

  private readonly busy = new Set<number>();

  private async attempt(delivery: Delivery): Promise<void> {
    const at = this.options.clock.now();
    const wrongSecret = this.faults.take('bad_signature', delivery.source) !== undefined;
    const headers = delivery.sign(delivery.body, at, wrongSecret);
    const result = await post(delivery.url, delivery.body, headers, this.options.timeoutMs ?? 5_000);
    delivery.attempts.push({ at, ...result });
    if (result.status !== undefined && result.status >= 200 && result.status < 300) {
      delivery.state = 'delivered';
      return;
    }
    const maxAttempts = this.options.maxAttempts ?? 5;
    if (delivery.attempts.length >= maxAttempts) {
      delivery.state = 'failed';
      return;
    }
    const firstRetryMs = this.options.firstRetryMs ?? 1_000;
    delivery.dueAt = this.options.clock.now() + firstRetryMs * 2 ** (delivery.attempts.length - 1);
  }
}

/** One POST with a deadline; never rejects. */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'toolsteps-sandbox-webhooks',
          ...headers,
        },
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(body);
  });
}
