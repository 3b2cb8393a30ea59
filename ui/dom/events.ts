import type {
  ConnectionView,
  StepDescription,
  StepHit,
  StreamedTriggerEvent,
  SubscriptionTestResponse,
  SubscriptionView,
  TestRunResponse,
} from '../client/api-types.js';

/**
 * The DOM events the elements fire, by name, with their `detail`. Each
 * bubbles and crosses shadow roots (`composed`), so one listener on the page
 * hears every element.
 */
export interface ToolstepsEventMap {
  /** step-search: a result was chosen. */
  'toolsteps-select': CustomEvent<{ step: StepHit }>;
  /**
   * What an element holds changed: step-search ({ query, hits }),
   * connection-picker ({ integration, connection }), step-form ({ step, input, valid }),
   * variable-mapper ({ mapping }), trigger-setup ({ trigger, connection, mapping }).
   */
  'toolsteps-change': CustomEvent<Record<string, unknown>>;
  /** connection-picker: a new account is connected (or an old one reconnected). */
  'toolsteps-connected': CustomEvent<{ integration: string; connection: ConnectionView }>;
  /** step-form: the step's description (schemas, default variables) is loaded. */
  'toolsteps-loaded': CustomEvent<{ step: StepDescription }>;
  /** step-form and trigger-setup: a test finished. */
  'toolsteps-test-result': CustomEvent<{
    ok: boolean;
    result?: TestRunResponse | SubscriptionTestResponse;
    /** `needsReconnect`: the account's provider refused its sign-in; offer to reconnect that account. */
    error?: { code?: string; message: string; needsReconnect?: boolean };
  }>;
  /** trigger-setup: the subscription is active. */
  'toolsteps-activated': CustomEvent<{ subscription: SubscriptionView }>;
  /** trigger-setup: an event arrived on the stream. */
  'toolsteps-event': CustomEvent<{ event: StreamedTriggerEvent }>;
  /** Any element: something failed; the element shows `message` itself. */
  'toolsteps-error': CustomEvent<{ message: string; code: string; status: number }>;
}
