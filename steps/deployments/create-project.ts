import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { deploymentsPath } from './lib/paths.js';
import { projectRequest, unlessNotFound } from './lib/project-request.js';
import { Project, ProjectName, toProject } from './lib/project-schema.js';
import { allowedProjects, requireProjectInScope } from './lib/project-scope.js';
import { BuildSettings, toProviderSettings } from './lib/project-settings.js';

export default defineStep({
  id: 'deployments.create_project',
  integration: deployments,
  title: 'Create Project',
  description: 'Create a project, optionally connected to a GitHub repository, with its build settings.',
  agentDescription:
    'Creates a project under a new, unique name, optionally connected to a GitHub repository ("owner/name"), so that pushes deploy it. It does not deploy by itself: use Create Deployment next. A name already taken fails with a conflict error; pick another or use the existing project. Not replayed blindly: if the answer is lost, the step looks the name up and reports the project with already_done true when it exists.',
  keywords: ['create project', 'new project', 'new site', 'import repository', 'add project'],
  get input() {
    return z.strictObject({
      name: ProjectName(),
      repository: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'a GitHub repository as "owner/name"')
        .optional()
        .describe('GitHub repository ("owner/name") to connect; pushes to it deploy the project.'),
      settings: BuildSettings()
        .omit({ node_version: true })
        .optional()
        .describe('Build settings; each one left out keeps the default for the framework.'),
    });
  },
  get output() {
    return z.object({
      project: Project().describe('The project as created.'),
      already_done: z
        .boolean()
        .describe(
          'True when the answer to the create was lost and the project was found by its name afterwards.',
        ),
    });
  },
  access: 'write',
  idempotent: false,
  // Names are unique, so a lost answer is settled by looking the name up (a replay would be a 409).
  replay: {
    mode: 'reconcile',
    find: async (input, context) => {
      const body = await unlessNotFound(
        projectRequest(context, input.name, 'Reading a project', { method: 'GET', path: 'project' }),
      );
      return body === undefined ? undefined : { project: toProject(body), already_done: true };
    },
    hint: (input) => `Get Project "${input.name}" before creating it again.`,
  },
  variables: { project_id: '$.project.id', name: '$.project.name' },
  examples: [
    {
      title: 'A new site from a repository',
      input: { name: 'marketing-site', repository: 'acme/marketing', settings: { framework: 'nextjs' } },
    },
  ],
  async run(input, { http, constraints }) {
    requireProjectInScope(input.name, allowedProjects(constraints), 'Creating a project');
    const body = definedOnly({
      name: input.name,
      gitRepository: input.repository ? { type: 'github', repo: input.repository } : undefined,
      ...toProviderSettings(input.settings),
    });
    const response = await http.request({ method: 'POST', path: deploymentsPath('createProject'), body });
    return { project: toProject(response.body), already_done: false };
  },
});
