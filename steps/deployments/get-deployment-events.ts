import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  afterCursor,
  BuildEvent,
  EventsCursor,
  eventsCursorAfter,
  MAX_EVENTS_PER_CALL,
  MAX_EVENTS_RESPONSE_BYTES,
  MAX_TEXT_PER_CALL,
  parseEventsCursor,
  readBuildEvents,
  withinBudget,
} from './lib/build-events.js';
import { DeploymentId } from './lib/deployment-schema.js';
import { recentDeploymentOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { deploymentInScope } from './lib/project-request.js';

export default defineStep({
  id: 'deployments.get_deployment_events',
  integration: deployments,
  title: 'Get Deployment Events',
  description: `Read a deployment's build logs, oldest first, a page at a time: at most ${MAX_EVENTS_PER_CALL} events and ${MAX_TEXT_PER_CALL / 1024} KiB of text per call.`,
  agentDescription: `Reads the build log of a deployment: each event is one line (stdout, stderr, command) with its time. Use it to find out why a build failed (tail: true gives the last lines, where the error usually is) or to follow a build: call again with next_cursor for the lines after the last one returned; while the deployment is still building, has_more can be false now and more lines come later. Each call returns at most ${MAX_EVENTS_PER_CALL} events and ${MAX_TEXT_PER_CALL / 1024} KiB of text in all (a longer line is cut at 4 KiB, marked truncated). Read-only and safe to retry.`,
  keywords: [
    'build logs',
    'logs',
    'events',
    'output',
    'why did the build fail',
    'build output',
    'deployment logs',
  ],
  get input() {
    return z
      .strictObject({
        deployment_id: DeploymentId(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_EVENTS_PER_CALL)
          .default(MAX_EVENTS_PER_CALL)
          .describe(`Most events to return, 1 to ${MAX_EVENTS_PER_CALL}.`),
        tail: z
          .boolean()
          .default(false)
          .describe('The last events of the log instead of the first; still returned oldest first.'),
        cursor: EventsCursor().optional(),
      })
      .refine((value) => !(value.tail && value.cursor), {
        path: ['tail'],
        message: 'tail reads the end of the log; a cursor continues after a page. Pass one of them.',
      });
  },
  options: { deployment_id: recentDeploymentOptions },
  get output() {
    return z.object({
      events: z.array(BuildEvent()).describe('Build events, oldest first.'),
      has_more: z.boolean().describe('Whether more events exist now after this page.'),
      next_cursor: z
        .string()
        .nullable()
        .describe(
          'Pass as cursor for the events after this page (also to follow a running build); null when no event was returned yet.',
        ),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { lines: '$.events[*].text', next_cursor: '$.next_cursor', has_more: '$.has_more' },
  examples: [
    { title: 'The end of a build log', input: { deployment_id: 'dpl_from_create_deployment', tail: true } },
  ],
  async run(input, context) {
    await deploymentInScope(context, input.deployment_id, 'Reading the build logs');
    const cursor = input.cursor ? parseEventsCursor(input.cursor) : undefined;
    // One more than needed says whether more exist; events of the cursor's millisecond come again and are skipped.
    const response = await context.http.request({
      method: 'GET',
      path: deploymentsPath('deploymentEvents', { id: input.deployment_id }),
      query: {
        direction: input.tail ? 'backward' : 'forward',
        limit: input.limit + 1 + (cursor?.seen ?? 0),
        since: cursor?.since,
      },
      maxResponseBytes: MAX_EVENTS_RESPONSE_BYTES,
    });
    const answered = readBuildEvents(response.body);
    if (input.tail) {
      // Newest first: the last lines within the budget, then back into log order.
      const newestFirst = answered.sort((a, b) => b.created - a.created);
      const page = withinBudget(newestFirst, input.limit).reverse();
      return {
        events: page.map((timed) => timed.event),
        has_more: false,
        next_cursor: eventsCursorAfter(page),
      };
    }
    const fresh = cursor ? afterCursor(answered, cursor) : answered;
    const page = withinBudget(fresh, input.limit);
    return {
      events: page.map((timed) => timed.event),
      has_more: fresh.length > page.length,
      next_cursor: eventsCursorAfter(page, cursor),
    };
  },
});
