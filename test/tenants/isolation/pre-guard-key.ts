import type { SecretBox } from '../../../src/store/sealed/secret-box.js';

/**
 * A tenant's wrapped data key as toolsteps releases before guards wrapped
 * it, made here from the raw seal rather than the code under test: the key
 * sealed with the master key under the binding `['toolsteps-data-key', '1',
 * namespace, tenant]`, stored as `{ kid, data }`.
 */
const context = (tenant: string) => `data key of tenant ${tenant}`;
const binding = (generation: string, namespace: string, tenant: string) =>
  JSON.stringify(['toolsteps-data-key', generation, namespace, tenant]);

/** Which binding the stored wrapped key opens under ('2': made with a guard, '1': before guards). */
export function wrappedAs(master: SecretBox, namespace: string, tenant: string, stored: string): string {
  const sealed = JSON.parse(stored) as { kid: string; data: string };
  for (const generation of ['2', '1']) {
    try {
      master.open(sealed, context(tenant), binding(generation, namespace, tenant));
      return generation;
    } catch {}
  }
  return 'none';
}

/** The same data key, wrapped the way a release before guards wrapped it. */
export function asPreGuardKey(master: SecretBox, namespace: string, tenant: string, stored: string): string {
  const sealed = JSON.parse(stored) as { kid: string; data: string };
  const generation = wrappedAs(master, namespace, tenant, stored);
  const key = master.open(sealed, context(tenant), binding(generation, namespace, tenant));
  const old = master.seal(key, context(tenant), binding('1', namespace, tenant));
  return JSON.stringify({ kid: old.kid, data: old.data });
}
