import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

interface Closable {
  close(): Promise<void>;
}

/**
 * A fixture started before each test of the enclosing describe (or once for
 * all of them, with `scope: 'all'`) and closed after. The returned object
 * stands for whichever fixture is current, so tests read `fx.invoke(...)`
 * as if they held it; touching it outside a test is an error. `timeoutMs`
 * is for a fixture slower to start or close than the hook timeout.
 */
export function useFixture<F extends Closable>(
  start: () => Promise<F>,
  scope: 'each' | 'all' = 'each',
  timeoutMs?: number,
): F {
  let current: F | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    current = await start();
  }, timeoutMs);
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await current?.close();
    current = undefined;
  }, timeoutMs);
  return new Proxy({} as F, {
    get(_target, key) {
      if (!current) throw new Error(`The fixture is open only while a test runs (read of "${String(key)}").`);
      const value = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** For tests that each open their own fixture (with their own options): closes it after each test. */
export function closeAfterEach(fixture: () => Closable | undefined): void {
  afterEach(async () => {
    await fixture()?.close();
  });
}
