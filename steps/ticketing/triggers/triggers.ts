import commentAdded from './comment-added.js';
import ticketAssigned from './ticket-assigned.js';
import ticketCreated from './ticket-created.js';
import ticketGroupChanged from './ticket-group-changed.js';
import ticketPriorityChanged from './ticket-priority-changed.js';
import ticketStatusChanged from './ticket-status-changed.js';
import ticketUpdated from './ticket-updated.js';

export const ticketingTriggers = [
  ticketCreated,
  ticketStatusChanged,
  ticketPriorityChanged,
  commentAdded,
  ticketAssigned,
  ticketGroupChanged,
  ticketUpdated,
];
