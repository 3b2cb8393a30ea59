import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildManifest } from '../../src/catalog/manifest.js';
import { Registry } from '../../src/catalog/registry.js';
import { defineTrigger } from '../../src/triggers/define-trigger.js';
import { createRegistry } from '../../steps/index.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import ticketCreated from '../../steps/ticketing/triggers/ticket-created.js';

const TRIGGER_IDS = [
  'ticketing.ticket_created',
  'ticketing.ticket_status_changed',
  'ticketing.ticket_priority_changed',
  'ticketing.comment_added',
  'ticketing.ticket_assigned',
  'ticketing.ticket_group_changed',
  'ticketing.ticket_updated',
  'deployments.deployment_started',
  'deployments.deployment_completed',
  'deployments.deployment_failed',
  'deployments.deployment_canceled',
  'deployments.deployment_promoted',
];

const registry = createRegistry();

describe('trigger catalogue', () => {
  it('registers the nine triggers the issue names, and refuses duplicates', () => {
    expect(registry.listTriggers().map((trigger) => trigger.id)).toEqual(TRIGGER_IDS);
    expect(() => registry.registerTrigger(ticketCreated)).toThrowError(/already registered/);
    expect(() => new Registry().registerTrigger(ticketCreated)).toThrowError(/registered first/);
  });

  it('keeps each trigger in its own file, named for the second half of its id', async () => {
    const byId = new Map<string, string>();
    for (const integration of ['ticketing', 'deployments']) {
      const folder = path.join('steps', integration, 'triggers');
      for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
        // defineTrigger, or an integration's builder over it (defineDeploymentTrigger).
        if (!/export default define\w*Trigger\(/.test(readFileSync(path.join(folder, file), 'utf8')))
          continue;
        const module = await import(`../../steps/${integration}/triggers/${file.replace(/\.ts$/, '.js')}`);
        byId.set(module.default.id, `${integration}/${file}`);
      }
    }
    for (const id of TRIGGER_IDS) {
      const [integration, name] = id.split('.');
      expect(byId.get(id)).toBe(`${integration}/${name!.replace(/_/g, '-')}.ts`);
    }
    expect(byId.size).toBe(TRIGGER_IDS.length);
  });

  it('refuses an id outside its integration: a type error, and refused at run time', () => {
    // @ts-expect-error the prefix is not the integration's id
    expect(() => defineTrigger({ ...ticketCreated, id: 'deployments.ticket_created' })).toThrowError(
      /must be "ticketing.<event_name>"/,
    );
    expect(() =>
      defineTrigger({ ...ticketCreated, integration: ticketing, id: 'ticketing.Bad-Name' }),
    ).toThrowError();
  });

  it('searches and describes triggers like steps', () => {
    expect(registry.searchTriggers('ticket status')[0]?.trigger.id).toBe('ticketing.ticket_status_changed');
    expect(registry.searchTriggers('deployment failed')[0]?.trigger.id).toBe('deployments.deployment_failed');
    expect(registry.searchTriggers('vercel').map((hit) => hit.trigger.id)).toHaveLength(5);
    expect(registry.searchTriggers('xyzzy')).toEqual([]);
    expect(() => registry.requireTrigger('ticketing.ticket_create')).toThrowError(
      /Did you mean: ticketing.ticket_created/,
    );
  });

  it('puts every trigger in the manifest with non-empty payload and setup schemas', () => {
    const manifest = buildManifest(registry);
    expect(manifest.triggers.map((trigger) => trigger.id)).toEqual(TRIGGER_IDS);
    for (const trigger of manifest.triggers) {
      const payload = trigger.payload as { properties?: Record<string, unknown>; $schema?: string };
      const setup = trigger.setup as { properties?: Record<string, { description?: string }> };
      expect(payload.$schema, trigger.id).toContain('2020-12');
      expect(Object.keys(payload.properties ?? {}), trigger.id).toEqual(
        expect.arrayContaining(['type', 'id']),
      );
      expect(Object.keys(setup.properties ?? {}).length, trigger.id).toBeGreaterThan(0);
      for (const [name, property] of Object.entries(setup.properties ?? {})) {
        expect(property.description, `${trigger.id} setup.${name}`).toBeTruthy();
      }
      expect(trigger.agentDescription.length).toBeGreaterThan(40);
      expect(trigger.signature).toMatch(/HMAC/);
    }
  });

  it('maps the fields the spec names by default', () => {
    const variables = (id: string) => Object.keys(registry.requireTrigger(id).variables);
    for (const id of TRIGGER_IDS.filter((item) => item.startsWith('ticketing'))) {
      expect(variables(id)).toEqual(
        expect.arrayContaining(['subject', 'description', 'requester', 'priority', 'status', 'assignee']),
      );
    }
    expect(variables('ticketing.comment_added')).toContain('comment_body');
    for (const id of TRIGGER_IDS.filter((item) => item.startsWith('deployments'))) {
      expect(variables(id)).toEqual(
        expect.arrayContaining(['deployment_id', 'url', 'project', 'target', 'state']),
      );
    }
    expect(variables('deployments.deployment_failed')).toContain('error_message');
  });

  it('has setup schemas that accept nothing unknown', () => {
    for (const trigger of registry.listTriggers()) {
      expect(trigger.setup.safeParse({}).success, trigger.id).toBe(true);
      expect(trigger.setup.safeParse({ nonsense: 1 }).success, trigger.id).toBe(false);
    }
    expect(z.toJSONSchema(ticketCreated.setup)).toBeTruthy();
  });
});
