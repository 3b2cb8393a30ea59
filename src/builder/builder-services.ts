import type { ServerResponse } from 'node:http';
import type { HostOriginGuard } from '../server/host-origin-guard.js';
import type { BuilderServerOptions } from './builder-options.js';
import type { OAuthFlows } from './oauth-flows.js';
import type { TenantContexts } from './tenant-contexts.js';
import type { TriggerEventHub } from './trigger-event-hub.js';

/** What every route handler of one server shares. */
export interface BuilderServices {
  options: BuilderServerOptions;
  contexts: TenantContexts;
  flows: OAuthFlows;
  hub: TriggerEventHub;
  /** The server's public base URL, without a trailing slash (known once it listens). */
  publicUrl(): string;
  /** The Host and Origin guard: which pages may call (known once it listens: its own page's origin is one). */
  origins(): HostOriginGuard;
  now(): number;
  /** Keeps an open stream, so closing the server ends it rather than waiting on it. */
  trackStream(response: ServerResponse): void;
}
