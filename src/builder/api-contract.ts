import * as steps from './api-schemas.js';
import * as connections from './connection-schemas.js';
import type { RouteSpec } from './route-spec.js';
import {
  CreateSubscriptionBody,
  StreamedTriggerEvent,
  SubscriptionStatus,
  SubscriptionsResponse,
  SubscriptionTestResponse,
  SubscriptionView,
  TriggersQuery,
  TriggersResponse,
} from './trigger-schemas.js';

export type { RouteAuth, RouteSpec } from './route-spec.js';

/**
 * Every route of the builder API, under `/v1`. Stable: routes may be added, never renamed.
 * What a page must know beyond the schemas: route-spec.ts.
 */
export const ROUTES = [
  {
    id: 'openApiDocument',
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'This API described as OpenAPI 3.1, generated from the same zod schemas the server checks with.',
    auth: 'public',
    response: steps.JsonSchemaDocument,
  },
  {
    id: 'searchSteps',
    method: 'GET',
    path: '/v1/steps',
    summary: 'Search tool steps, ranked like `toolsteps search`.',
    auth: 'builder',
    query: steps.SearchQuery,
    response: steps.SearchResponse,
  },
  {
    id: 'describeStep',
    method: 'GET',
    path: '/v1/steps/{stepId}',
    summary: 'A step: schemas, default variables, access; specialised to a connection when one is given.',
    auth: 'builder',
    query: steps.DescribeQuery,
    response: steps.StepDescription,
  },
  {
    id: 'stepOptions',
    method: 'POST',
    path: '/v1/steps/{stepId}/options',
    summary: 'The choices of one input field (an assignee, a project), searched and paged.',
    auth: 'builder',
    body: steps.OptionsRequest,
    response: steps.OptionsResponse,
  },
  {
    id: 'testStep',
    method: 'POST',
    path: '/v1/steps/{stepId}/test',
    summary:
      'Runs a draft configuration once, as a test: output, mapped variables and meta. Writes need confirmWrite.',
    auth: 'builder',
    body: steps.TestRunRequest,
    response: steps.TestRunResponse,
  },
  {
    id: 'upgradeStep',
    method: 'POST',
    path: '/v1/steps/{stepId}/upgrade',
    summary:
      "A draft saved on an earlier major, upgraded: the latest reference, the input through the major's migration, and what changes.",
    auth: 'builder',
    body: steps.UpgradeRequest,
    response: steps.UpgradeResponse,
  },
  {
    id: 'listIntegrations',
    method: 'GET',
    path: '/v1/integrations',
    summary: 'Integrations and how each is connected from a page.',
    auth: 'builder',
    response: connections.IntegrationsResponse,
  },
  {
    id: 'listConnections',
    method: 'GET',
    path: '/v1/connections',
    summary: "The token's tenant's connections.",
    auth: 'builder',
    query: connections.ConnectionsQuery,
    response: connections.ConnectionsResponse,
  },
  {
    id: 'startConnection',
    method: 'POST',
    path: '/v1/connections',
    summary:
      'Connects an account: an OAuth sign-in to open (redirect or pop-up), or an API key stored at once.',
    auth: 'builder',
    body: connections.StartConnectRequest,
    response: connections.StartConnectResponse,
  },
  {
    id: 'connectFlowStatus',
    method: 'GET',
    path: '/v1/connect-flows/{flowId}',
    summary: 'How an OAuth sign-in started by this tenant stands.',
    auth: 'builder',
    response: connections.FlowStatus,
  },
  {
    id: 'oauthCallback',
    method: 'GET',
    path: '/v1/oauth/callback',
    summary:
      "The provider's redirect back: checks the state and that this browser started the flow (its sign-in cookie), exchanges the code, stores the connection for the tenant that started the flow.",
    auth: 'oauth_state',
    response: connections.FlowStatus,
    contentType: 'html',
  },
  {
    id: 'testConnection',
    method: 'POST',
    path: '/v1/connections/{connectionId}/test',
    summary: "One free authenticated read with the connection, through the provider's cheapest check.",
    auth: 'builder',
    response: connections.ConnectionTestResponse,
  },
  {
    id: 'reconnectConnection',
    method: 'POST',
    path: '/v1/connections/{connectionId}/reconnect',
    summary: 'Signs in again (OAuth) or replaces the key (api_key), keeping the connection id.',
    auth: 'builder',
    body: connections.ReconnectRequest,
    response: connections.StartConnectResponse,
  },
  {
    id: 'renameConnection',
    method: 'PATCH',
    path: '/v1/connections/{connectionId}',
    summary: 'Renames the account: the label people see in the picker.',
    auth: 'builder',
    body: connections.RenameRequest,
    response: connections.ConnectionView,
  },
  {
    id: 'disconnectConnection',
    method: 'DELETE',
    path: '/v1/connections/{connectionId}',
    summary:
      'Removes the connection from the store at once, then revokes its grant at the provider where it has a way (`revocation` says how that went; a failure is kept and retried).',
    auth: 'builder',
    response: connections.DisconnectedResponse,
  },
  {
    id: 'listTriggers',
    method: 'GET',
    path: '/v1/triggers',
    summary: 'Events of each integration, with payload schema and a sample payload.',
    auth: 'builder',
    query: TriggersQuery,
    response: TriggersResponse,
  },
  {
    id: 'listSubscriptions',
    method: 'GET',
    path: '/v1/subscriptions',
    summary: "The tenant's trigger subscriptions.",
    auth: 'builder',
    response: SubscriptionsResponse,
  },
  {
    id: 'createSubscription',
    method: 'POST',
    path: '/v1/subscriptions',
    summary:
      "Subscribes to a trigger with a mapping from event data to the agent's input variables; provisioned at the provider.",
    auth: 'builder',
    body: CreateSubscriptionBody,
    response: SubscriptionView,
  },
  {
    id: 'subscriptionStatus',
    method: 'GET',
    path: '/v1/subscriptions/{subscriptionId}',
    summary: 'The subscription and its webhook as the provider has it.',
    auth: 'builder',
    response: SubscriptionStatus,
  },
  {
    id: 'testSubscription',
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/test',
    summary:
      'Sends a sample event through the real intake (verified, deduplicated, mapped) and says what it mapped.',
    auth: 'builder',
    response: SubscriptionTestResponse,
  },
  {
    id: 'activateSubscription',
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/activate',
    summary: 'Turns deliveries on.',
    auth: 'builder',
    response: SubscriptionView,
  },
  {
    id: 'deactivateSubscription',
    method: 'POST',
    path: '/v1/subscriptions/{subscriptionId}/deactivate',
    summary: 'Turns deliveries off.',
    auth: 'builder',
    response: SubscriptionView,
  },
  {
    id: 'removeSubscription',
    method: 'DELETE',
    path: '/v1/subscriptions/{subscriptionId}',
    summary: 'Removes the webhook at the provider, then the subscription.',
    auth: 'builder',
    response: connections.RemovedResponse,
  },
  {
    id: 'triggerEvents',
    method: 'GET',
    path: '/v1/events',
    summary:
      "Server-sent events: each trigger event of the tenant's subscriptions as it arrives (`event: trigger`).",
    auth: 'builder',
    response: StreamedTriggerEvent,
    contentType: 'event-stream',
  },
] as const satisfies readonly RouteSpec[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** The route by its operation id. */
export function routeSpec(id: RouteId): RouteSpec {
  return ROUTES.find((route) => route.id === id)!;
}
