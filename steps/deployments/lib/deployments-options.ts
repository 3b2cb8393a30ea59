import * as z from 'zod';
import { builtOnce, fixedOptions, matchingItems, type OptionsSource } from '../../../src/kit/index.js';
import { CANCELABLE_STATES } from './deployment-schema.js';
import { deploymentsPath } from './paths.js';
import { allowedProjects, refuseAccountWide } from './project-scope.js';
import { readTimeChoices } from './time-page.js';

/**
 * Where the deployments fields' choices come from: the connection's
 * projects (`/v9/projects`, searched by name, within the embedder's project
 * constraints), its teams (`/v2/teams`), the deployments a cancel can still
 * stop, and the closed list of environments.
 */

const Project = builtOnce(() =>
  z.object({ id: z.string(), name: z.string(), framework: z.string().nullable().optional() }),
);

/** Projects by name, newest first; only those the step's constraints allow. */
export const projectOptions: OptionsSource = {
  searchable: true,
  async load({ query, cursor }, { http, limit, constraints }) {
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('projects'),
      query: { search: query || undefined, limit, until: cursor || undefined },
    });
    const page = readTimeChoices(response.body, 'projects', Project());
    const allowed = allowedProjects(constraints);
    const items = page.items
      .filter((project) => !allowed || allowed.includes(project.name) || allowed.includes(project.id))
      .map((project) => ({
        value: project.name,
        label: project.name,
        description: [project.id, project.framework].filter(Boolean).join(' · '),
      }));
    return { ...page, items };
  },
};

const Team = builtOnce(() =>
  z.object({ id: z.string(), slug: z.string(), name: z.string().nullable().optional() }),
);

/** The teams the connection's user belongs to; refused, as the team steps are, under project scoping. */
export const teamOptions: OptionsSource = {
  searchable: false,
  async load({ query }, { http, constraints }) {
    refuseAccountWide(allowedProjects(constraints), 'Listing teams');
    const response = await http.request({ method: 'GET', path: deploymentsPath('teams') });
    const page = z.object({ teams: z.array(Team()) }).parse(response.body);
    const items = page.teams.map((team) => ({
      value: team.id,
      label: team.name || team.slug,
      description: team.slug,
    }));
    return { items: matchingItems(items, query) };
  },
};

const Listed = builtOnce(() =>
  z.object({
    uid: z.string(),
    name: z.string(),
    url: z.string().nullable().optional(),
    state: z.string().optional(),
    readyState: z.string().optional(),
  }),
);

/**
 * Deployments, newest first, within the project constraints: those in
 * `states` (the provider filters by state), or every recent one.
 */
function deploymentOptions(states?: readonly string[]): OptionsSource {
  return {
    searchable: false,
    async load({ query, cursor }, { http, limit, constraints }) {
      const response = await http.request({
        method: 'GET',
        path: deploymentsPath('listDeployments'),
        query: { state: states?.join(','), limit, until: cursor || undefined },
      });
      const page = readTimeChoices(response.body, 'deployments', Listed());
      const allowed = allowedProjects(constraints);
      const items = page.items
        .filter((deployment) => !allowed || allowed.includes(deployment.name))
        .map((deployment) => ({
          value: deployment.uid,
          label: `${deployment.name} ${deployment.url ?? deployment.uid}`,
          description: deployment.readyState ?? deployment.state ?? '',
        }));
      return { ...page, items: matchingItems(items, query) };
    },
  };
}

/** Deployments a cancel can still stop: queued, initializing or building, newest first. */
export const cancelableDeploymentOptions = deploymentOptions(CANCELABLE_STATES);

/** Recent deployments in any state, newest first: for reading, logs and deletion. */
export const recentDeploymentOptions = deploymentOptions();

/** Where a deployment goes: the provider's three targets. */
export const environmentOptions = fixedOptions([
  { value: 'production', label: 'Production', description: 'the live site' },
  { value: 'preview', label: 'Preview', description: 'a preview deployment with its own URL' },
  { value: 'development', label: 'Development', description: 'deployed as a preview' },
]);

const ListedDomain = builtOnce(() => z.object({ name: z.string(), verified: z.boolean().optional() }));

/** The account's domains (`/v5/domains`), newest first; refused under project scoping, as account-wide reads are. */
export const accountDomainOptions: OptionsSource = {
  searchable: false,
  async load({ query, cursor }, { http, limit, constraints }) {
    refuseAccountWide(allowedProjects(constraints), 'Listing account domains');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('domains'),
      query: { limit, until: cursor || undefined },
    });
    const page = readTimeChoices(response.body, 'domains', ListedDomain());
    const items = page.items.map((domain) => ({
      value: domain.name,
      label: domain.name,
      description: domain.verified === false ? 'not verified' : 'verified',
    }));
    return { ...page, items: matchingItems(items, query) };
  },
};
