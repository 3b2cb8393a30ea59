import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { governance } from '../../../steps/governance/integration.js';
import { governanceSteps } from '../../../steps/governance/steps.js';
import { createRegistry } from '../../../steps/index.js';

const folder = fileURLToPath(new URL('../../../steps/governance', import.meta.url));

/** Every property of every object in a JSON Schema, with its description. */
function properties(schema: unknown, at = ''): { path: string; description: unknown }[] {
  const node = schema as { properties?: Record<string, unknown>; items?: unknown };
  const found: { path: string; description: unknown }[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    found.push({ path: `${at}${name}`, description: (child as { description?: unknown }).description });
    found.push(...properties(child, `${at}${name}.`));
  }
  if (node.items) found.push(...properties(node.items, `${at}[].`));
  return found;
}

describe('the governance catalogue', () => {
  it('has no API Call and no Delete Project step', () => {
    expect(governance.apiCall.methods).toEqual([]);
    expect(governanceSteps.some((step) => /delete_project/.test(step.id))).toBe(false);
  });

  it('names each step file for its id, and lists every step file', () => {
    const files = readdirSync(folder).filter(
      (file) => !['integration.ts', 'steps.ts'].includes(file) && file.endsWith('.ts'),
    );
    const expected = governanceSteps.map((step) => `${step.id.split('.')[1]!.replace(/_/g, '-')}.ts`);
    expect(files.sort()).toEqual(expected.sort());
  });

  it('declares access and replay safety per operation', () => {
    const declared = Object.fromEntries(
      governanceSteps.map((step) => [step.id, [step.access, step.idempotent]]),
    );
    expect(declared).toEqual({
      'governance.create_project': ['write', false],
      'governance.invite_user': ['write', false],
      'governance.change_invite_role': ['write', false],
      'governance.update_user_role': ['write', true],
      'governance.delete_invite': ['write', true],
      'governance.remove_user': ['destructive', true],
    });
  });

  it('describes every input and output field, in snake_case', () => {
    for (const step of governanceSteps) {
      for (const io of ['input', 'output'] as const) {
        const fields = properties(z.toJSONSchema(step[io], { io }));
        expect(fields.length).toBeGreaterThan(0);
        for (const field of fields) {
          expect(field.description, `${step.id} ${io} ${field.path}`).toEqual(expect.any(String));
          expect(field.path).toMatch(/^[a-z][a-z0-9_.]*$/);
        }
      }
      for (const text of [step.title, step.description, step.agentDescription])
        expect(text.length).toBeGreaterThan(10);
    }
    for (const field of properties(z.toJSONSchema(governance.connection.fields, { io: 'input' }))) {
      expect(field.description, field.path).toEqual(expect.any(String));
    }
  });

  it('is registered and appears in the manifest with non-empty schemas', () => {
    const manifest = buildManifest(createRegistry());
    const integration = manifest.integrations.find((entry) => entry.id === 'governance');
    expect(integration).toMatchObject({ connection: { kind: 'api_key' }, apiCallMethods: [] });
    const steps = manifest.steps.filter((step) => step.integration === 'governance');
    expect(steps).toHaveLength(6);
    for (const step of steps) {
      expect(Object.keys((step.input as { properties?: object }).properties ?? {}).length).toBeGreaterThan(0);
      expect(Object.keys((step.output as { properties?: object }).properties ?? {}).length).toBeGreaterThan(
        0,
      );
    }
  });

  it('is found by search', () => {
    const registry = createRegistry();
    expect(registry.search('invite user to project', 3).map((hit) => hit.step.id)).toContain(
      'governance.invite_user',
    );
    expect(registry.search('remove member', 3).map((hit) => hit.step.id)).toContain('governance.remove_user');
  });
});
