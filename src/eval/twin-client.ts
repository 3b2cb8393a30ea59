import { ProviderError } from '../errors/index.js';

/** Every control request is on loopback and quick; a twin that does not answer in this long is broken. */
const CONTROL_TIMEOUT_MS = 10_000;
const CONTROL_HEADER = 'x-toolsteps-sandbox';

/** A fault rule as the sandbox's `POST /_sandbox/faults` takes it. */
export interface FaultRuleBody {
  target?: string;
  method?: string;
  pathIncludes?: string;
  count: number;
  action:
    | {
        kind: 'status';
        status: number;
        headers?: Record<string, string>;
        body?: unknown;
        when?: 'before' | 'after';
      }
    | { kind: 'reset'; when: 'before' | 'after' }
    | { kind: 'delay'; ms: number };
}

/**
 * The twins' control endpoints (`/_sandbox/*`) over HTTP: how the harness
 * resets, seeds, breaks and reads the twins. Over HTTP, not through the
 * emulator objects, so the same harness drives a sandbox in another process
 * and the checks read what the provider's side holds.
 */
export class TwinClient {
  constructor(
    readonly url: string,
    private readonly fetchImpl: typeof globalThis.fetch = globalThis.fetch,
  ) {}

  private async send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await this.fetchImpl(`${this.url}/_sandbox${path}`, {
      method,
      headers: method === 'POST' ? { [CONTROL_HEADER]: '1', 'content-type': 'application/json' } : {},
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new ProviderError(
        `The sandbox refused ${method} /_sandbox${path} (${response.status}): ${text.slice(0, 500)}`,
        {
          status: response.status,
        },
      );
    }
    return text === '' ? undefined : JSON.parse(text);
  }

  reset(): Promise<unknown> {
    return this.send('POST', '/reset');
  }

  seed(twin: string, seed: unknown): Promise<unknown> {
    return this.send('POST', `/seed/${encodeURIComponent(twin)}`, seed);
  }

  state(twin: string): Promise<unknown> {
    return this.send('GET', `/state/${encodeURIComponent(twin)}`);
  }

  addFault(rule: FaultRuleBody): Promise<unknown> {
    return this.send('POST', '/faults', rule);
  }

  addWebhookFault(rule: { kind: 'duplicate'; target?: string; count: number }): Promise<unknown> {
    return this.send('POST', '/webhook-faults', rule);
  }

  tokens(twin: string, action: 'expire' | 'revoke'): Promise<unknown> {
    return this.send('POST', `/tokens/${encodeURIComponent(twin)}`, { action });
  }

  settleWebhooks(): Promise<unknown> {
    return this.send('POST', '/webhooks/settle');
  }
}
