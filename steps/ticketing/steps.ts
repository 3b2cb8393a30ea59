import addComment from './add-comment.js';
import apiCall from './api-call.js';
import createTicket from './create-ticket.js';
import createUser from './create-user.js';
import deleteTicket from './delete-ticket.js';
import getOrganization from './get-organization.js';
import getTicketInfo from './get-ticket-info.js';
import getUser from './get-user.js';
import listComments from './list-comments.js';
import listOrganizations from './list-organizations.js';
import listTickets from './list-tickets.js';
import listUsers from './list-users.js';
import searchTickets from './search-tickets.js';
import searchUsers from './search-users.js';
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
  addComment,
  listComments,
  uploadAttachment,
  listUsers,
  searchUsers,
  getUser,
  createUser,
  updateUser,
  listOrganizations,
  getOrganization,
  apiCall,
];
