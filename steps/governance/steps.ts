import changeInviteRole from './change-invite-role.js';
import createProject from './create-project.js';
import deleteInvite from './delete-invite.js';
import inviteUser from './invite-user.js';
import removeUser from './remove-user.js';
import updateUserRole from './update-user-role.js';

/**
 * No API Call step: the spec defines none for governance, and the key has access
 * to the full account. No Delete Project step either: the platform does not offer it yet.
 */
export const governanceSteps = [
  createProject,
  inviteUser,
  changeInviteRole,
  updateUserRole,
  deleteInvite,
  removeUser,
];
