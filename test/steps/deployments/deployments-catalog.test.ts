import { describe, expect, it } from 'vitest';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { createRegistry } from '../../../steps/index.js';

type Schema = { properties?: Record<string, Schema & { description?: string }>; anyOf?: Schema[] };

/** Every property at every level carries a description, the way forms and agents read it. */
function undescribed(schema: Schema, path = ''): string[] {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
    ...(property.description ? [] : [`${path}${name}`]),
    ...undescribed(property, `${path}${name}.`),
  ]);
  return [...own, ...(schema.anyOf ?? []).flatMap((option) => undescribed(option, path))];
}

describe('deployments catalogue', () => {
  const manifest = buildManifest(createRegistry());
  const steps = manifest.steps.filter((step) => step.integration === 'deployments');

  it('describes every input and output field', () => {
    for (const step of steps) {
      expect(Object.keys((step.input as Schema).properties ?? {}).length, step.id).toBeGreaterThan(0);
      expect(undescribed(step.input as Schema), `${step.id} input`).toEqual([]);
      expect(undescribed(step.output as Schema), `${step.id} output`).toEqual([]);
    }
  });

  it('declares access and idempotency honestly', () => {
    const byId = Object.fromEntries(steps.map((step) => [step.id, step]));
    expect(byId['deployments.create_deployment']).toMatchObject({ access: 'write', idempotent: false });
    expect(byId['deployments.list_deployments']).toMatchObject({ access: 'read', idempotent: true });
    expect(byId['deployments.cancel_deployment']).toMatchObject({ access: 'destructive', idempotent: true });
    const integration = manifest.integrations.find((entry) => entry.id === 'deployments');
    expect(integration?.connection).toMatchObject({ kind: 'oauth2', oauth: { refreshes: true } });
    expect(integration?.apiCallMethods).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
  });
});
