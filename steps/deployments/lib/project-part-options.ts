import * as z from 'zod';
import { builtOnce, InputError, matchingItems, type OptionsSource } from '../../../src/kit/index.js';
import { deploymentsPath } from './paths.js';
import { allowedProjects, requireProjectInScope } from './project-scope.js';
import { readTimeChoices } from './time-page.js';

/**
 * Choices that live inside one project (its environment variables, its
 * domains): each depends on the step's `project` field, so a form asks for
 * the project first, and the answer is cached per project.
 */

/** The project the caller chose, refused unsent when the step's constraints leave it out. */
function chosenProject(
  input: Partial<Record<string, unknown>>,
  constraints: Readonly<Record<string, readonly string[]>>,
  what: string,
): string {
  const project = input.project;
  if (typeof project !== 'string') {
    // Not an empty list: an empty dropdown would read as "this project has none".
    throw new InputError(`${what} need a project: choose the project first and pass it in input.`, [
      { path: 'input.project', message: 'required for these options' },
    ]);
  }
  requireProjectInScope(project, allowedProjects(constraints), what);
  return project;
}

const Env = builtOnce(() =>
  z.object({
    id: z.string(),
    key: z.string(),
    type: z.string(),
    target: z
      .union([z.array(z.string()), z.string()])
      .nullable()
      .optional(),
  }),
);

/** A project's environment variables by name, with their type and targets; never a value. */
export const envVarOptions: OptionsSource = {
  dependsOn: ['project'],
  searchable: false,
  async load({ query, input }, { http, constraints }) {
    const project = chosenProject(input, constraints, 'The environment variable choices');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('projectEnv', { id: project }),
    });
    const { envs } = z.object({ envs: z.array(Env()) }).parse(response.body);
    const items = envs.map((env) => ({
      value: env.id,
      label: env.key,
      description: [env.type, [env.target ?? []].flat().join(', ')].filter(Boolean).join(' · '),
    }));
    return { items: matchingItems(items, query) };
  },
};

const Domain = builtOnce(() => z.object({ name: z.string(), verified: z.boolean().optional() }));

/** A project's domains, newest first, each marked verified or not. */
export const projectDomainOptions: OptionsSource = {
  dependsOn: ['project'],
  searchable: false,
  async load({ query, cursor, input }, { http, limit, constraints }) {
    const project = chosenProject(input, constraints, 'The domain choices');
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('projectDomains', { id: project }),
      query: { limit, until: cursor || undefined },
    });
    const page = readTimeChoices(response.body, 'domains', Domain());
    const items = page.items.map((domain) => ({
      value: domain.name,
      label: domain.name,
      description: domain.verified ? 'verified' : 'not verified yet',
    }));
    return { ...page, items: matchingItems(items, query) };
  },
};
