import type { ServerResponse } from 'node:http';
import type { BuilderServerOptions } from './builder-options.js';
import type { CorsPolicy } from './cors-policy.js';
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
  cors(): CorsPolicy;
  now(): number;
  /** Keeps an open stream, so closing the server ends it rather than waiting on it. */
  trackStream(response: ServerResponse): void;
}
