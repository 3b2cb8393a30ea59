import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildManifest, serializeManifest } from '../../src/catalog/manifest.js';
import { createRegistry } from '../../steps/index.js';

/** The steps each integration's issue asked for: a step more or less is a change to the catalogue, made here on purpose. */
const STEPS_OF: Record<string, string[]> = {
  ticketing: [
    'ticketing.create_ticket',
    'ticketing.get_ticket_info',
    'ticketing.list_tickets',
    'ticketing.search_tickets',
    'ticketing.update_ticket',
    'ticketing.delete_ticket',
    'ticketing.add_tags',
    'ticketing.remove_tags',
    'ticketing.add_comment',
    'ticketing.list_comments',
    'ticketing.upload_attachment',
    'ticketing.list_users',
    'ticketing.search_users',
    'ticketing.get_user',
    'ticketing.get_current_user',
    'ticketing.create_user',
    'ticketing.update_user',
    'ticketing.delete_user',
    'ticketing.list_organizations',
    'ticketing.get_organization',
    'ticketing.create_organization',
    'ticketing.update_organization',
    'ticketing.delete_organization',
    'ticketing.list_groups',
    'ticketing.get_group',
    'ticketing.list_ticket_fields',
    'ticketing.get_ticket_field',
    'ticketing.list_ticket_forms',
    'ticketing.get_ticket_form',
    'ticketing.list_views',
    'ticketing.list_view_tickets',
    'ticketing.list_suspended_tickets',
    'ticketing.recover_suspended_ticket',
    'ticketing.delete_suspended_ticket',
    'ticketing.list_macros',
    'ticketing.search_macros',
    'ticketing.get_macro',
    'ticketing.show_macro_changes',
    'ticketing.api_call',
  ],
  anz_data: [
    'anz_data.enrich_person',
    'anz_data.search_people',
    'anz_data.enrich_company',
    'anz_data.api_call',
  ],
  contact_data: [
    'contact_data.enrich_contacts',
    'contact_data.find_contact',
    'contact_data.search_contacts',
    'contact_data.enrich_companies',
    'contact_data.find_company',
    'contact_data.search_companies',
    'contact_data.api_call',
  ],
  deployments: [
    'deployments.create_deployment',
    'deployments.list_deployments',
    'deployments.get_deployment',
    'deployments.get_deployment_events',
    'deployments.cancel_deployment',
    'deployments.redeploy',
    'deployments.promote_deployment',
    'deployments.rollback_project',
    'deployments.delete_deployment',
    'deployments.list_projects',
    'deployments.get_project',
    'deployments.create_project',
    'deployments.update_project',
    'deployments.delete_project',
    'deployments.list_env_vars',
    'deployments.create_env_var',
    'deployments.update_env_var',
    'deployments.delete_env_var',
    'deployments.list_domains',
    'deployments.add_domain',
    'deployments.verify_project_domain',
    'deployments.get_domain_config',
    'deployments.remove_domain',
    'deployments.list_account_domains',
    'deployments.get_account_domain',
    'deployments.list_aliases',
    'deployments.get_alias',
    'deployments.assign_alias',
    'deployments.delete_alias',
    'deployments.list_teams',
    'deployments.list_team_members',
    'deployments.api_call',
  ],
  governance: [
    'governance.create_project',
    'governance.invite_user',
    'governance.change_invite_role',
    'governance.update_user_role',
    'governance.delete_invite',
    'governance.remove_user',
  ],
};

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
        const module = await import(`../../steps/${folder.name}/${file.replace(/\.ts$/, '.js')}`);
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

  it('has a row in STEPS_OF for every integration', () => {
    expect(manifest.integrations.map((integration) => integration.id).sort()).toEqual(
      Object.keys(STEPS_OF).sort(),
    );
  });

  it.each(Object.entries(STEPS_OF))('lists exactly the %s steps, in catalogue order', (integration, ids) => {
    expect(manifest.steps.filter((step) => step.integration === integration).map((step) => step.id)).toEqual(
      ids,
    );
  });
});
