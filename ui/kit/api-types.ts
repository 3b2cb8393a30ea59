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

export type StepHit = z.output<typeof StepHitSchema>;
export type SearchResponse = z.output<typeof SearchResponseSchema>;
export type StepDescription = z.output<typeof StepDescriptionSchema>;
export type OptionsResponse = z.output<typeof OptionsResponseSchema>;
export type OptionItem = OptionsResponse['options'][number];
export type TestRunRequest = z.input<typeof TestRunRequestSchema>;
export type TestRunResponse = z.output<typeof TestRunResponseSchema>;
export type IntegrationView = z.output<typeof IntegrationViewSchema>;
export type IntegrationsResponse = z.output<typeof IntegrationsResponseSchema>;
export type ConnectionView = z.output<typeof ConnectionViewSchema>;
export type ConnectionsResponse = z.output<typeof ConnectionsResponseSchema>;
export type ConnectionTestResponse = z.output<typeof ConnectionTestResponseSchema>;
export type StartConnectRequest = z.input<typeof StartConnectRequestSchema>;
export type ReconnectRequest = z.input<typeof ReconnectRequestSchema>;
export type StartConnectResponse = z.output<typeof StartConnectResponseSchema>;
export type FlowStatus = z.output<typeof FlowStatusSchema>;
export type TriggerView = z.output<typeof TriggerViewSchema>;
export type TriggersResponse = z.output<typeof TriggersResponseSchema>;
export type SubscriptionView = z.output<typeof SubscriptionViewSchema>;
export type SubscriptionTestResponse = z.output<typeof SubscriptionTestResponseSchema>;
export type StreamedTriggerEvent = z.output<typeof StreamedTriggerEventSchema>;

/** A JSON Schema document, as the API sends a step's input or a trigger's payload. */
export type JsonSchema = Record<string, unknown>;

type RouteOf<Id extends RouteId> = Extract<(typeof ROUTES)[number], { id: Id }>;
/** Each operation's path template, checked against the server's route table by the compiler. */
export type RoutePaths = { [Id in RouteId]?: RouteOf<Id>['path'] };
