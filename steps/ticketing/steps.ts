import apiCall from './api-call.js';
import createTicket from './create-ticket.js';
import deleteTicket from './delete-ticket.js';
import getTicketInfo from './get-ticket-info.js';
import listTickets from './list-tickets.js';
import searchTickets from './search-tickets.js';
import updateTicket from './update-ticket.js';

export const ticketingSteps = [
  createTicket,
  getTicketInfo,
  listTickets,
  searchTickets,
  updateTicket,
  deleteTicket,
  apiCall,
];
