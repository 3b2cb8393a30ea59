import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { GuardReading } from '../../../src/store/sealed/guard-reading.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { FIRST_GUARD, GuardSeal } from '../../../src/store/sealed/tenant-guard.js';
import { WrappedDataKey } from '../../../src/store/sealed/wrapped-data-key.js';
import { asPreGuardKey } from '../../tenants/isolation/pre-guard-key.js';

const tenant = parseTenantId('acme');
const NAMESPACE = 'toolsteps-test:t:acme';

/** A tenant's key wrapping and a fresh reader of its guard, as one process holds them. */
function processOf(master: SecretBox) {
  const wrapping = new WrappedDataKey(master, tenant, NAMESPACE);
  const seal = new GuardSeal(tenant, NAMESPACE);
  return { wrapping, seal, reading: new GuardReading(seal, wrapping) };
}

describe('which release wrapped a data key, and what a guard read makes of it', () => {
  const masterKey = randomBytes(32);
  const master = new SecretBox(masterKey);
  const { wrapping, seal } = processOf(master);
  const made = wrapping.fresh();
  const old = asPreGuardKey(master, NAMESPACE, tenant, made);

  it('a key made now says it was made with a guard; one an earlier release wrapped opens as made before guards', () => {
    expect(wrapping.generationOf(made)).toBe('2');
    expect(wrapping.generationOf(old)).toBe('1');
    expect(wrapping.boxOf(old).keyId).toBe(wrapping.boxOf(made).keyId);
    expect(wrapping.generationOf(wrapping.upgraded(old))).toBe('2');
  });

  it('a master key rotation keeps the generation: a pre-guard key stays one until its guard is sealed', () => {
    const next = new SecretBox(randomBytes(32), [masterKey]);
    const rotated = new WrappedDataKey(next, tenant, NAMESPACE);
    expect(rotated.generationOf(rotated.rewrapped(old) as string)).toBe('1');
    expect(rotated.generationOf(rotated.rewrapped(made) as string)).toBe('2');
  });

  it('a pre-guard key without a guard is upgraded: a first guard sealed with the same key, the key rewrapped', () => {
    const { reading } = processOf(master);
    const proven = reading.state({ wrapped: old, guard: null });
    expect(proven.state).toEqual(FIRST_GUARD);
    expect(proven.upgrade?.read).toEqual({ wrapped: old, guard: null });
    expect(wrapping.generationOf(proven.upgrade?.wrapped as string)).toBe('2');
    expect(seal.open(wrapping.boxOf(made), proven.upgrade?.guard as string)).toEqual(FIRST_GUARD);
  });

  it('a key made with a guard but without one is a deleted guard, not an upgrade', () => {
    const { reading } = processOf(master);
    expect(() => reading.state({ wrapped: made, guard: null })).toThrow(
      expect.objectContaining({ code: 'record_tampered' }),
    );
  });

  it('after seeing the upgraded key, the pre-guard key is refused, with or without a guard', () => {
    const { reading } = processOf(master);
    const guard = seal.seal(wrapping.boxOf(made), FIRST_GUARD);
    expect(reading.state({ wrapped: made, guard }).upgrade).toBeUndefined();
    expect(() => reading.state({ wrapped: old, guard: null })).toThrow(
      expect.objectContaining({ problem: 'rolled_back' }),
    );
    expect(() => reading.state({ wrapped: old, guard })).toThrow(
      expect.objectContaining({ problem: 'rolled_back' }),
    );
  });

  it('after seeing a guard, a pre-guard key without one is a deleted guard', () => {
    const { reading } = processOf(master);
    const guard = seal.seal(wrapping.boxOf(old), FIRST_GUARD);
    const proven = reading.state({ wrapped: old, guard });
    expect(proven.upgrade).toMatchObject({ read: { wrapped: old, guard }, guard: null });
    expect(() => reading.state({ wrapped: old, guard: null })).toThrow(
      expect.objectContaining({ code: 'record_tampered' }),
    );
  });

  it('a process without the master key opens nothing and upgrades nothing', () => {
    const { reading } = processOf(new SecretBox(randomBytes(32)));
    expect(() => reading.state({ wrapped: old, guard: null })).toThrow();
  });
});
