/** What the intake hands over for each started event: the line `listen` prints. */
export interface TriggerEvent {
  subscription: string;
  trigger: string;
  event_id: string;
  occurred_at: string;
  variables: Record<string, unknown>;
  payload: unknown;
}

/** Starts the agent (or queues the start). Throwing leaves the event undone, so the provider's retry brings it again. */
export type TriggerEventHandler = (event: TriggerEvent) => Promise<void> | void;
