/**
 * The builder API's shapes as the kit sees them: types only, inferred from
 * the server's own zod schemas (src/builder), so a renamed field fails the
 * kit's type check instead of a page. Nothing here runs: the browser bundle
 * holds no zod.
 */
import type * as z from 'zod';
import type { ROUTES, RouteId } from '../../src/builder/api-contract.js';
import type {
  OptionsResponse as OptionsResponseSchema,
  SearchResponse as SearchResponseSchema,
  StepDescription as StepDescriptionSchema,
  StepHit as StepHitSchema,
  TestRunRequest as TestRunRequestSchema,
  TestRunResponse as TestRunResponseSchema,
  UpgradeResponse as UpgradeResponseSchema,
} from '../../src/builder/api-schemas.js';
import type {
  ConnectionsResponse as ConnectionsResponseSchema,
  ConnectionTestResponse as ConnectionTestResponseSchema,
  ConnectionView as ConnectionViewSchema,
  FlowStatus as FlowStatusSchema,
  IntegrationsResponse as IntegrationsResponseSchema,
  IntegrationView as IntegrationViewSchema,
  ReconnectRequest as ReconnectRequestSchema,
  StartConnectRequest as StartConnectRequestSchema,
  StartConnectResponse as StartConnectResponseSchema,
} from '../../src/builder/connection-schemas.js';
import type {
  StreamedTriggerEvent as StreamedTriggerEventSchema,
  SubscriptionTestResponse as SubscriptionTestResponseSchema,
  SubscriptionView as SubscriptionViewSchema,
  TriggersResponse as TriggersResponseSchema,
  TriggerView as TriggerViewSchema,
} from '../../src/builder/trigger-schemas.js';

/** One step in a search answer: what a search bar row shows. */
export type StepHit = z.output<typeof StepHitSchema>;
/** What `GET /v1/steps` answers: the ranked steps for a query. */
export type SearchResponse = z.output<typeof SearchResponseSchema>;
/** What `GET /v1/steps/{stepId}` answers: the step's schemas and texts, from which the form is drawn. */
export type StepDescription = z.output<typeof StepDescriptionSchema>;
/** What `GET /v1/steps/{stepId}/options` answers: one page of a field's choices from the connected account. */
export type OptionsResponse = z.output<typeof OptionsResponseSchema>;
/** One choice of a field, as a dropdown shows it. */
export type OptionItem = OptionsResponse['options'][number];
/** What `POST /v1/steps/{stepId}/test` takes: a connection and an input to try the step with from the builder. */
export type TestRunRequest = z.input<typeof TestRunRequestSchema>;
/** What a test run answers: the input as sent, the output, its variables and the call's meta (a failure is an error answer instead), so a user can map variables from a real output. */
export type TestRunResponse = z.output<typeof TestRunResponseSchema>;
/** What `POST /v1/steps/{stepId}/upgrade` answers: a saved draft as the latest major takes it, and what changes. */
export type UpgradeResponse = z.output<typeof UpgradeResponseSchema>;
/** One integration as a connect dialog lists it: its connection kind and the fields it asks for. */
export type IntegrationView = z.output<typeof IntegrationViewSchema>;
/** What `GET /v1/integrations` answers. */
export type IntegrationsResponse = z.output<typeof IntegrationsResponseSchema>;
/** One connection as a picker shows it: never its secrets. */
export type ConnectionView = z.output<typeof ConnectionViewSchema>;
/** What `GET /v1/connections` answers. */
export type ConnectionsResponse = z.output<typeof ConnectionsResponseSchema>;
/** What testing a connection answers: whether a free read worked (null where the provider has none), and who it says answered. */
export type ConnectionTestResponse = z.output<typeof ConnectionTestResponseSchema>;
/** What `POST /v1/connections` takes to start connecting an account (an OAuth flow, or a key). */
export type StartConnectRequest = z.input<typeof StartConnectRequestSchema>;
/** What reconnecting an expired or revoked connection takes. */
export type ReconnectRequest = z.input<typeof ReconnectRequestSchema>;
/** What starting a connection answers: the page to open for OAuth, or the connection made from a key. */
export type StartConnectResponse = z.output<typeof StartConnectResponseSchema>;
/** Where an OAuth connect flow stands, polled while the user is at the provider's page. */
export type FlowStatus = z.output<typeof FlowStatusSchema>;
/** One trigger as a trigger setup lists it, with its setup schema. */
export type TriggerView = z.output<typeof TriggerViewSchema>;
/** What `GET /v1/triggers` answers. */
export type TriggersResponse = z.output<typeof TriggersResponseSchema>;
/** One subscription as the builder shows it: its state and URL, never its signing secret. */
export type SubscriptionView = z.output<typeof SubscriptionViewSchema>;
/** What testing a subscription answers: a sample event, the variables it maps to, and whether the subscription would skip it. */
export type SubscriptionTestResponse = z.output<typeof SubscriptionTestResponseSchema>;
/** One event of `GET /v1/events`, the stream a trigger setup watches to show deliveries as they arrive. */
export type StreamedTriggerEvent = z.output<typeof StreamedTriggerEventSchema>;

/** A JSON Schema document, as the API sends a step's input or a trigger's payload. */
export type JsonSchema = Record<string, unknown>;

type RouteOf<Id extends RouteId> = Extract<(typeof ROUTES)[number], { id: Id }>;
/** Each operation's path template, checked against the server's route table by the compiler. */
export type RoutePaths = { [Id in RouteId]?: RouteOf<Id>['path'] };
