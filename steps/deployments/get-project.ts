import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { projectRequest } from './lib/project-request.js';
import { OneProject, toProject } from './lib/project-schema.js';

export default defineStep({
  id: 'deployments.get_project',
  integration: deployments,
  title: 'Get Project',
  description: 'Read one project: its build settings, git repository and latest deployment.',
  agentDescription:
    'Reads one project by name or id: framework, build settings, connected git repository and production branch, and its newest deployment. Read-only and safe to retry.',
  keywords: ['project', 'project settings', 'details', 'repository', 'build settings'],
  get input() {
    return z.strictObject({ project: ProjectRef() });
  },
  options: { project: projectOptions },
  get output() {
    return OneProject();
  },
  access: 'read',
  idempotent: true,
  variables: { project_id: '$.project.id', name: '$.project.name', framework: '$.project.framework' },
  examples: [{ title: 'The shop project', input: { project: 'shop' } }],
  async run(input, context) {
    const body = await projectRequest(context, input.project, 'Reading a project', {
      method: 'GET',
      path: 'project',
    });
    return { project: toProject(body) };
  },
});
