import * as z from 'zod';

/**
 * What the ticketing emulator does that the provider's own description does
 * not have; each is a setting (`assume: { ticketing: {...} }`,
 * `--assume ticketing.<name>=<value>`).
 */
export const TicketingAssumptions = z
  .object({
    // integrations.md lists POST /api/v2/tickets/{id}/comments.json, but the provider's
    // published description (contracts/openapi/zendesk-support.json) has no such
    // operation: comments are added through a ticket update.
    post_comments_endpoint: z
      .boolean()
      .default(true)
      .describe(
        'Serve POST /api/v2/tickets/{id}/comments.json as the spec lists it; false = 404, as the provider description has only GET.',
      ),
  })
  .strict();
export type TicketingAssumptions = z.output<typeof TicketingAssumptions>;
