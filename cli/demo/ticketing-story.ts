import { randomUUID } from 'node:crypto';
import { connectWithOAuth } from './connect-with-oauth.js';
import type { DemoContext } from './demo-context.js';

/** Connect through the real OAuth flow, then create, read, update, comment on, search, list and delete a ticket. */
export async function ticketingStory(demo: DemoContext): Promise<void> {
  demo.heading('Ticketing: connect with OAuth, then work a ticket');
  const tokens = await connectWithOAuth(demo, {
    id: 'acme-support',
    integration: 'ticketing',
    label: 'Acme support (sandbox)',
    fields: { subdomain: 'acme', baseUrl: demo.sandbox.baseUrl('ticketing', 'acme') },
  });
  const now = Date.now();
  demo.say(
    `connected "acme-support" via authorization code + PKCE; token expires in ${Math.round(((tokens.expiresAt ?? now) - now) / 60_000)} min, refresh token stored`,
  );

  const created = await demo.step<{ ticket: { id: number } }>('ticketing.create_ticket', 'acme-support', {
    subject: 'Checkout page times out',
    description: 'Customers report a spinner that never ends on the checkout page since this morning.',
    priority: 'high',
    type: 'incident',
    assignee: 'sam@acme.example',
    tags: ['checkout'],
    external_id: `demo-${randomUUID()}`,
  });
  const ticketId = created.output.ticket.id;
  await demo.step('ticketing.get_ticket_info', 'acme-support', { ticket_id: ticketId });
  await demo.step('ticketing.update_ticket', 'acme-support', {
    ticket_id: ticketId,
    status: 'pending',
    add_tags: ['payments'],
    public_comment: 'Thanks for the report: we are rolling back the last release.',
  });
  await demo.step('ticketing.add_comment', 'acme-support', {
    ticket_id: ticketId,
    body: 'Rollback ticket OPS-231 opened.',
    visibility: 'internal',
  });
  await demo.step(
    'ticketing.list_comments',
    'acme-support',
    { ticket_id: ticketId, visibility: 'public', newest_first: true },
    'what the requester sees: the internal note is not among them',
  );
  await demo.step('ticketing.search_tickets', 'acme-support', {
    query: 'status:pending tags:checkout "spinner"',
  });
  await demo.step('ticketing.list_tickets', 'acme-support', { priority: 'high', limit: 5 });
  await demo.step(
    'ticketing.delete_ticket',
    'acme-support',
    { ticket_id: ticketId },
    'destructive: permanent',
  );
}
