import addComment from './add-comment.js';
import addTags from './add-tags.js';
import apiCall from './api-call.js';
import createOrganization from './create-organization.js';
import createTicket from './create-ticket.js';
import createUser from './create-user.js';
import deleteOrganization from './delete-organization.js';
import deleteSuspendedTicket from './delete-suspended-ticket.js';
import deleteTicket from './delete-ticket.js';
import deleteUser from './delete-user.js';
import getCurrentUser from './get-current-user.js';
import getGroup from './get-group.js';
import getMacro from './get-macro.js';
import getOrganization from './get-organization.js';
import getTicketField from './get-ticket-field.js';
import getTicketForm from './get-ticket-form.js';
import getTicketInfo from './get-ticket-info.js';
import getUser from './get-user.js';
import listComments from './list-comments.js';
import listGroups from './list-groups.js';
import listMacros from './list-macros.js';
import listOrganizations from './list-organizations.js';
import listSuspendedTickets from './list-suspended-tickets.js';
import listTicketFields from './list-ticket-fields.js';
import listTicketForms from './list-ticket-forms.js';
import listTickets from './list-tickets.js';
import listUsers from './list-users.js';
import listViewTickets from './list-view-tickets.js';
import listViews from './list-views.js';
import recoverSuspendedTicket from './recover-suspended-ticket.js';
import removeTags from './remove-tags.js';
import searchMacros from './search-macros.js';
import searchTickets from './search-tickets.js';
import searchUsers from './search-users.js';
import showMacroChanges from './show-macro-changes.js';
import updateOrganization from './update-organization.js';
import updateTicket from './update-ticket.js';
import updateUser from './update-user.js';
import uploadAttachment from './upload-attachment.js';

export const ticketingSteps = [
  createTicket,
  getTicketInfo,
  listTickets,
  searchTickets,
  updateTicket,
  deleteTicket,
  addTags,
  removeTags,
  addComment,
  listComments,
  uploadAttachment,
  listUsers,
  searchUsers,
  getUser,
  getCurrentUser,
  createUser,
  updateUser,
  deleteUser,
  listOrganizations,
  getOrganization,
  createOrganization,
  updateOrganization,
  deleteOrganization,
  listGroups,
  getGroup,
  listTicketFields,
  getTicketField,
  listTicketForms,
  getTicketForm,
  listViews,
  listViewTickets,
  listSuspendedTickets,
  recoverSuspendedTicket,
  deleteSuspendedTicket,
  listMacros,
  searchMacros,
  getMacro,
  showMacroChanges,
  apiCall,
];
