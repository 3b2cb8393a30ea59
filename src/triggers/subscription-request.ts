import type { KnownId } from '../model/known-id.js';

/**
 * What subscribing a workflow to a trigger takes; everything is checked
 * before anything is stored or sent. `TriggerId` is the ids of the triggers
 * the registry holds, when its type says (`Registry.from`).
 */
export interface CreateSubscriptionRequest<TriggerId extends string = string> {
  trigger: TriggerId;
  connection: string;
  /** Public base URL the provider reaches; deliveries go to `<target>/hooks/<id>`. */
  target: string;
  setup?: Record<string, unknown>;
  mapping?: Record<string, string>;
  constraints?: Record<string, string[]>;
  /** Default true. */
  active?: boolean;
  /**
   * The webhook is made by hand in the provider's settings: nothing is
   * provisioned. The provider shows the secret only once the URL is pasted,
   * so it may come later (`setSecret`); until then every delivery is refused.
   */
  manual?: { secret?: string | undefined };
  /** Who asked (a builder token's id): named in the audit records of the subscription and its provider calls. */
  caller?: string | undefined;
}

/**
 * The trigger id `create` takes: one of the registry's triggers (or
 * `id@major`, which the subscription then keeps), or a `string` known only
 * at run time; any, when the registry's type does not name its triggers.
 */
export type SubscribedTriggerId<
  TriggerId extends string,
  Id extends string,
> = `${string}.${string}` extends TriggerId ? string : KnownId<Id, TriggerId | `${TriggerId}@${number}`>;
