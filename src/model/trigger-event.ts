/** What the intake hands over for each started event: the line `listen` prints. */
export interface TriggerEvent {
  /** The tenant of the subscription the event came through: whose agent it starts, and no other's. */
  tenant: string;
  subscription: string;
  trigger: string;
  event_id: string;
  occurred_at: string;
  variables: Record<string, unknown>;
  payload: unknown;
}

/** What a handler is given besides the event. */
export interface HandOff {
  /**
   * Aborts when the hand-off's deadline passes (or its claim was lost): the
   * handler must stop then, since the event's claim lapses soon after and a
   * retry may start the event again.
   */
  signal: AbortSignal;
}

/**
 * Starts the agent (or queues the start). Throwing leaves the event undone,
 * so the provider's retry brings it again.
 */
export type TriggerEventHandler = (event: TriggerEvent, handOff: HandOff) => Promise<void> | void;
