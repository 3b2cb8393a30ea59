import type * as z from 'zod';

/**
 * The builder API's routes are described by `ROUTES` (api-contract.ts).
 * What a page needs to know beyond the schemas:
 * - Every `builder` route takes `Authorization: Bearer <token>`; no cookie
 *   authorises anything. `GET /v1/events` too, so a page reads it with
 *   `fetch` and a stream reader (EventSource cannot send the header).
 * - OAuth sign-in: `startConnection` answers `authorizeUrl` and sets the
 *   flow's cookie (send it with `credentials: 'include'` so the browser keeps
 *   it); `oauthCallback` refuses a browser without it. `redirect`: the
 *   page navigates there; the provider comes back to `oauthCallback`, which
 *   sends the browser to `returnTo` with `toolsteps_flow=<flowId>` and
 *   `toolsteps_connect=connected|failed` added to its query. `popup`: the page
 *   opens it in a window; the callback page posts
 *   `{ source: 'toolsteps', flowId, state }` to its opener (only to the origin
 *   that started the flow) and closes. Either way `connectFlowStatus` says how
 *   it went and which connection it made.
 * - A draft input's placeholders: a string that is exactly `{{name}}` becomes
 *   the sample value of `name` (any JSON); `{{name}}` inside longer text is
 *   replaced by its text.
 */

/**
 * How a route is authorised: `builder`, a bearer token with the builder
 * scope; `public`, nothing (the OpenAPI document); `oauth_state`, the
 * provider's redirect back, authorised by the single-use state it carries
 * and the starting browser's sign-in cookie.
 */
export type RouteAuth = 'builder' | 'public' | 'oauth_state';

export interface RouteSpec {
  /** The operation id, stable: the UI kit and generated clients call it by name. */
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path template: `{name}` is one path segment. */
  path: string;
  summary: string;
  auth: RouteAuth;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The 2xx answer: JSON of this schema, or `event-stream`/`html` with it describing what is sent. */
  response: z.ZodType;
  contentType?: 'json' | 'event-stream' | 'html';
}
