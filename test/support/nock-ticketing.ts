import { ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { MemoryLogger } from '../../src/model/logger.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { catalogInvokers } from './catalog-invoke.js';
import { nockedFetch } from './nocked-fetch.js';

export const ACCESS_TOKEN = 'at-secret-0123456789abcdef';
export const REFRESH_TOKEN = 'rt-secret-fedcba9876543210';
export const HOST = 'https://acme.zendesk.com';

/** A ticketing connection to the real host name, for nock: proves URL composition and headers. */
export function nockTicketing(options: { runtime?: RuntimeOptions; connection?: Partial<Connection> } = {}) {
  const clock = new ManualClock();
  const connection: Connection = {
    id: 'acme',
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', clientId: 'toolsteps-server' },
    secrets: {
      accessToken: ACCESS_TOKEN,
      refreshToken: REFRESH_TOKEN,
      clientSecret: 'client-secret-value-xyz',
    },
    expiresAt: clock.now() + 3600_000,
    createdAt: clock.now(),
    updatedAt: clock.now(),
    ...options.connection,
  };
  const store = new MemoryConnectionStore([connection]);
  const logger = new MemoryLogger();
  const runtime = new Runtime({
    store,
    clock,
    logger,
    transport: { fetch: nockedFetch },
    retry: { random: () => 0.5 },
    ...options.runtime,
  });
  return {
    clock,
    store,
    logger,
    runtime,
    ...catalogInvokers(runtime, 'acme'),
  };
}
