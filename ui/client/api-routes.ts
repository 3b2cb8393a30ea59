import type { RoutePaths } from './api-types.js';

/**
 * The paths of the builder API's routes, by operation id. `satisfies`
 * makes the compiler compare each with the server's route table
 * (src/builder/api-contract.ts), without bundling that table (and zod).
 */
export const PATHS = {
  searchSteps: '/v1/steps',
  describeStep: '/v1/steps/{stepId}',
  stepOptions: '/v1/steps/{stepId}/options',
  testStep: '/v1/steps/{stepId}/test',
  upgradeStep: '/v1/steps/{stepId}/upgrade',
  listIntegrations: '/v1/integrations',
  listConnections: '/v1/connections',
  startConnection: '/v1/connections',
  connectFlowStatus: '/v1/connect-flows/{flowId}',
  oauthCallback: '/v1/oauth/callback',
  testConnection: '/v1/connections/{connectionId}/test',
  reconnectConnection: '/v1/connections/{connectionId}/reconnect',
  renameConnection: '/v1/connections/{connectionId}',
  disconnectConnection: '/v1/connections/{connectionId}',
  listTriggers: '/v1/triggers',
  listSubscriptions: '/v1/subscriptions',
  createSubscription: '/v1/subscriptions',
  subscriptionStatus: '/v1/subscriptions/{subscriptionId}',
  testSubscription: '/v1/subscriptions/{subscriptionId}/test',
  activateSubscription: '/v1/subscriptions/{subscriptionId}/activate',
  deactivateSubscription: '/v1/subscriptions/{subscriptionId}/deactivate',
  removeSubscription: '/v1/subscriptions/{subscriptionId}',
  triggerEvents: '/v1/events',
} as const satisfies RoutePaths;

/** A route's path with its `{name}` segments filled, each encoded as one segment. */
export function pathOf(id: keyof typeof PATHS, params: Record<string, string> = {}): string {
  return PATHS[id].replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
