import commentAdded from './comment-added.js';
import ticketAssigned from './ticket-assigned.js';
import ticketCreated from './ticket-created.js';
import ticketPriorityChanged from './ticket-priority-changed.js';
import ticketStatusChanged from './ticket-status-changed.js';

export const ticketingTriggers = [
  ticketCreated,
  ticketStatusChanged,
  ticketPriorityChanged,
  commentAdded,
  ticketAssigned,
];
