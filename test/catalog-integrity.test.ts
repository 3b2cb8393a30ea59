import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildManifest, serializeManifest } from '../src/manifest.js';
import { createRegistry } from '../steps/index.js';

const registry = createRegistry();
const manifest = buildManifest(registry);

describe('catalogue integrity', () => {
  it('manifest.json is fresh: regenerate with `npx toolsteps manifest`', () => {
    expect(readFileSync('manifest.json', 'utf8')).toBe(serializeManifest(manifest));
  });

  it('every step id matches its file name (kebab form of the second half)', async () => {
    const byId = new Map<string, string>();
    for (const folder of readdirSync('steps', { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    )) {
      for (const file of readdirSync(path.join('steps', folder.name)).filter((name) =>
        name.endsWith('.ts'),
      )) {
        const source = readFileSync(path.join('steps', folder.name, file), 'utf8');
        if (!/export default define(ApiCall)?Step\(/.test(source)) continue;
        const module = await import(`../steps/${folder.name}/${file.replace(/\.ts$/, '.js')}`);
        byId.set(module.default.id, `${folder.name}/${file}`);
      }
    }
    for (const step of registry.listSteps()) {
      const [integration, name] = step.id.split('.');
      expect(byId.get(step.id)).toBe(`${integration!.replace(/_/g, '-')}/${name!.replace(/_/g, '-')}.ts`);
    }
    expect(byId.size).toBe(registry.listSteps().length);
  });

  it('every step has described, non-empty input and output schemas and sane metadata', () => {
    for (const step of manifest.steps) {
      for (const side of ['input', 'output'] as const) {
        const schema = step[side] as {
          properties?: Record<string, { description?: string }>;
          $schema?: string;
        };
        expect(schema.$schema, `${step.id} ${side}`).toContain('2020-12');
        expect(Object.keys(schema.properties ?? {}).length, `${step.id} ${side}`).toBeGreaterThan(0);
      }
      const input = step.input as { properties: Record<string, { description?: string; anyOf?: unknown }> };
      for (const [name, property] of Object.entries(input.properties)) {
        expect(property.description, `${step.id} input.${name} needs .describe()`).toBeTruthy();
      }
      expect(step.agentDescription.length).toBeGreaterThan(40);
      expect(Object.keys(step.variables).length).toBeGreaterThan(0);
      for (const name of Object.keys(input.properties)) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it('destructive steps say so, in metadata and in words an agent reads', () => {
    const destructive = manifest.steps.filter((step) => step.access === 'destructive').map((step) => step.id);
    expect(destructive).toContain('ticketing.delete_ticket');
    for (const id of destructive) {
      expect(manifest.steps.find((step) => step.id === id)?.agentDescription).toMatch(
        /permanent|cannot be undone|irreversib|only use when/i,
      );
    }
  });

  it('lists the seven ticketing steps', () => {
    expect(manifest.steps.filter((step) => step.integration === 'ticketing').map((step) => step.id)).toEqual([
      'ticketing.create_ticket',
      'ticketing.get_ticket_info',
      'ticketing.list_tickets',
      'ticketing.search_tickets',
      'ticketing.update_ticket',
      'ticketing.delete_ticket',
      'ticketing.api_call',
    ]);
  });
});
