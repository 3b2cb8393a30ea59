import * as z from 'zod';
import { definedOnly, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { projectRequest } from './lib/project-request.js';
import { OneProject, ProjectName, toProject } from './lib/project-schema.js';
import { BuildSettings, toProviderSettings } from './lib/project-settings.js';

export default defineStep({
  id: 'deployments.update_project',
  integration: deployments,
  title: 'Update Project',
  description:
    'Rename a project or change its build settings (framework, commands, directories, Node.js version).',
  agentDescription:
    'Changes a project: a new name, and/or build settings. Only the settings given change; null resets a command or directory to the default. Takes effect from the next deployment (existing ones keep their build). Renaming changes the name other steps take, not the id. Safe to retry: sending the same change twice leaves the project the same.',
  keywords: [
    'update project',
    'rename project',
    'build settings',
    'build command',
    'node version',
    'framework',
  ],
  get input() {
    return z
      .strictObject({
        project: ProjectRef(),
        name: ProjectName().optional().describe('A new name for the project.'),
        settings: BuildSettings()
          .optional()
          .describe('Build settings to change; the ones left out stay as they are.'),
      })
      .refine((value) => value.name !== undefined || Object.keys(value.settings ?? {}).length > 0, {
        path: ['settings'],
        message: 'give a new name or at least one setting to change',
      });
  },
  options: { project: projectOptions },
  get output() {
    return OneProject();
  },
  access: 'write',
  // The same PATCH twice leaves the project as once: safe to replay.
  idempotent: true,
  variables: { project_id: '$.project.id', name: '$.project.name' },
  examples: [
    { title: 'Build the shop on Node 20', input: { project: 'shop', settings: { node_version: '20.x' } } },
  ],
  async run(input, context) {
    const body = await projectRequest(context, input.project, 'Updating a project', {
      method: 'PATCH',
      path: 'project',
      body: definedOnly({ name: input.name, ...toProviderSettings(input.settings) }),
    });
    return { project: toProject(body) };
  },
});
