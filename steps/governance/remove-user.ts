import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { UserId } from './lib/ids.js';
import { callGovernance } from './lib/operations.js';
import { type ProjectRemovalTexts, projectRemoval, projectRemovalOutput } from './lib/project-removal.js';

/** What this removal's output says, in its own words. */
const REMOVAL_TEXTS: ProjectRemovalTexts = {
  alreadyDoneMeans:
    "True when this call's first request may have removed the user but its answer was lost, and the repeated request found them no longer a member: they are removed, most likely by that first request (a removal by someone else in the same moment cannot be told apart). False when this call removed them and said so.",
  key: 'The user removed from the project.',
  project: 'Project the user was removed from (the connection’s project).',
};

export default defineStep({
  id: 'governance.remove_user',
  integration: governance,
  title: 'Remove User From Project',
  description: "Remove a member from the connection's project; they lose access to it at once.",
  agentDescription:
    "Removes a user from the connection's project: they lose access to everything in it immediately, and getting them back takes a new invite. Needs an API key whose user is an admin of the project. Takes the user_id (not an email). Only use when the user explicitly asked to remove this person; to reduce access, prefer Update User Role with viewer. It removes project membership only: the user stays in the organization, keeps their API keys and their other projects; it does not deactivate the account (that happens in the identity provider) and does not delete any project. A user who is not a member is not found (an error), except when the connection dropped after the platform may have removed them: the step sends the removal again and, if that finds them gone, succeeds with already_done true.",
  keywords: ['remove user', 'remove member', 'revoke access', 'offboard', 'kick', 'delete user from project'],
  get input() {
    return z.strictObject({ user_id: UserId() });
  },
  get output() {
    return projectRemovalOutput('removed', 'user_id', REMOVAL_TEXTS);
  },
  ...projectRemoval('removed', 'user_id'),
  access: 'destructive',
  examples: [{ title: 'Remove Bob from the project', input: { user_id: 'usr-bob' } }],
  async run(input, context) {
    const projectId = connectionProject(context);
    // The spec's request body for removal is an empty JSON object.
    await callGovernance(context.http, 'removeUser', {}, { userId: input.user_id });
    return { removed: true as const, already_done: false, user_id: input.user_id, project_id: projectId };
  },
});
