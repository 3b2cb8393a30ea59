import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';

/**
 * Run before each test file of the `nock` project (vitest.config.ts), whose
 * files follow one another in a worker that stays: nock stays imported and
 * intercepting there, so whatever a file left (interceptors it did not use,
 * a `disableNetConnect`) is cleared when it ends, and the next file starts
 * as in a process of its own: nock active, no interceptor, the network allowed.
 */
beforeAll(() => {
  if (!nock.isActive()) nock.activate();
});

afterAll(() => {
  nock.abortPendingRequests();
  nock.cleanAll();
  nock.enableNetConnect();
});
