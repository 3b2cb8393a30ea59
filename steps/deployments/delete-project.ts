import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { projectRequest } from './lib/project-request.js';
import { removalOutput, removalStep } from './lib/removal.js';

export default defineStep({
  id: 'deployments.delete_project',
  integration: deployments,
  title: 'Delete Project',
  description: 'Delete a project with all its deployments, domains and environment variables.',
  agentDescription:
    'Deletes a project permanently, with every deployment, domain assignment and environment variable it has; its sites stop serving. It cannot be undone. Only use when the user asked for this project to be deleted, by name. Safe to retry: a repeat that finds it already gone succeeds with already_done true.',
  keywords: ['delete project', 'remove project', 'destroy', 'tear down'],
  get input() {
    return z.strictObject({ project: ProjectRef() });
  },
  options: { project: projectOptions },
  get output() {
    return removalOutput(
      'project',
      'The project name or id, as given.',
      'deleted',
      'Always true: the project no longer exists.',
    );
  },
  ...removalStep('project', 'deleted'),
  examples: [{ title: 'Remove the docs project', input: { project: 'docs' } }],
  async run(input, context) {
    // The provider answers 204 with no body.
    await projectRequest(context, input.project, 'Deleting a project', { method: 'DELETE', path: 'project' });
    return { project: input.project, deleted: true as const, already_done: false };
  },
});
