import type * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import { definedMappingProblem } from '../mapping/mapping.js';
import type { PublicConnection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import type { Logger } from '../model/logger.js';
import { earlierMajorsProblem } from '../step/earlier-major.js';
import type { ReturnedValue } from '../step/returned-value.js';
import { type Deprecation, type VersionString, versionProblem } from '../step/step-version.js';
import { copyWithGettersRunOnce } from '../values/getters-run-once.js';
import type { EarlierTriggerMajor } from './earlier-trigger-major.js';
import type { EventTimeSource } from './event-time-source.js';
import type { ListedWebhook, RemovalOutcome, RemovedItem } from './provider-webhook.js';
import type { SignatureScheme } from './signature-scheme.js';
import type { TriggerId } from './trigger-id.js';

export type { EventTimeSource } from './event-time-source.js';
export type { RawDelivery, SignatureScheme } from './signature-scheme.js';
export type { TriggerId } from './trigger-id.js';

/** What every event carries, read from its validated payload. */
export interface EventFacts {
  /** The provider's own event id: the dedupe key, stable across its retries. */
  eventId: string;
  /** ISO-8601 time the provider says the event happened. */
  occurredAt: string;
}

/** The embedder's limits on what a subscription may see (`{ projects: [...] }`), enforced at intake as well as at the provider. */
export type Constraints = Readonly<Record<string, readonly string[]>>;

/** What every call to the provider about a trigger works with. */
export interface ProviderContext {
  /** Bound to the subscription's connection, exactly as a step's `ctx.http`. */
  http: HttpClient;
  connection: PublicConnection;
  log: Logger;
}

export interface ProvisionContext<Setup> extends ProviderContext {
  subscription: {
    id: string;
    /**
     * The public URL deliveries must go to: `<target>/hooks/<id>`. It is the
     * marker that finds the webhook again, so give it to the provider as is.
     */
    url: string;
    setup: Setup;
    constraints: Constraints;
  };
  /**
   * Webhooks the provider already holds that deliver to `subscription.url`:
   * an earlier attempt made them and its answer was lost. Adopt one (or,
   * where its secret cannot be read again, delete and replace it) instead
   * of creating another; delete any others. Empty on a first attempt.
   */
  existing: readonly ListedWebhook[];
  /** The provider ids an earlier attempt recorded (empty on a first attempt). */
  recorded: Readonly<Record<string, string>>;
  /** Whether a signing secret is stored already (for the webhook in `recorded`). */
  secretStored: boolean;
  /**
   * Saves what exists at the provider so far (and the signing secret as
   * soon as it is known) before the next call, so a failure half-way leaves
   * a record that `remove` can finish, never an orphan nobody knows about.
   */
  record(provider: Record<string, string>, secret?: string): Promise<void>;
}

export interface RemoveContext extends ProviderContext {
  /** The provider-side ids `provision` recorded: each key it deletes, or finds gone, is reported. */
  provider: Readonly<Record<string, string>>;
  /** Saves what is left after each deletion, for the same reason as in provisioning. */
  record(provider: Record<string, string>): Promise<void>;
}

/** What reading or testing a subscription's webhook at the provider works with. */
export interface WebhookContext extends ProviderContext {
  subscription: {
    id: string;
    /** `<target>/hooks/<id>`: where the provider delivers. */
    url: string;
    /** The provider-side ids `provision` recorded. */
    provider: Readonly<Record<string, string>>;
  };
}

/** The provider's view of a subscription's webhook, for `triggers status`. Never a secret. */
export interface WebhookStatus {
  /** False when the provider no longer has it (deleted in its settings): nothing will be delivered. */
  exists: boolean;
  /** The provider's own word for its state (`active`, `inactive`), or null when it keeps none. */
  state: string | null;
  /** Facts worth showing: where it delivers, which events. */
  details: Record<string, string>;
}

/** How the provider's test delivery went, as the provider reports it. */
export interface TestDeliveryResult {
  /** The receiver answered 2xx. */
  delivered: boolean;
  /** The receiver's HTTP status, when the provider says. */
  status: number | null;
  message: string;
}

/**
 * The provider side of a subscription after it is made: reading its
 * webhook, and asking for a test delivery where the provider offers one.
 */
export interface WebhookAdmin {
  /** Reads the webhook as the provider holds it now, so `triggers status` can tell a disabled or missing one from a healthy one. */
  status(context: WebhookContext): Promise<WebhookStatus>;
  /** Asks the provider to deliver `payload` to the subscription's URL now, signed like a real event. */
  test?(context: WebhookContext, payload: string): Promise<TestDeliveryResult>;
  /** Without `test`: why the provider cannot send one, and what to do instead. */
  noTest?: string;
  /**
   * Every webhook of the connection's account (all pages, up to a bound).
   * Finds ours by the URL after an answer was lost, and the orphans that
   * point at us but belong to no subscription (`triggers status`).
   */
  list?(context: ProviderContext): Promise<ListedWebhook[]>;
  /** Deletes one webhook by its provider id: `already_gone` when the provider has none by that id. */
  delete?(context: ProviderContext, webhookId: string): Promise<RemovalOutcome>;
}

/** What `provision` made at the provider, stored with the subscription so `remove` can undo exactly that. */
export interface ProvisionResult {
  provider: Record<string, string>;
  /**
   * The signing secret the provider gave (the intake refuses every delivery
   * without one); absent when the one already stored stands.
   */
  secret?: string | undefined;
}

/**
 * What a trigger file hands to `defineTrigger`: the event's schema, how
 * deliveries are verified and parsed, and how the webhook is made and
 * removed. `Id` keeps the literal id, so a registry's triggers are known by
 * id to the compiler as its steps are.
 */
export interface TriggerDefinition<
  Event extends z.ZodType,
  Setup extends z.ZodType,
  Owner extends Integration = Integration,
  Id extends TriggerId<Owner['id']> = TriggerId<Owner['id']>,
> {
  /** `<integration>.<event_name>`; the file name is the kebab form of the second half. A wrong prefix is a type error. */
  id: Id;
  integration: Owner;
  /**
   * `major.minor` of the event payload and setup (default `1.0`), as for
   * steps: a subscription saves the major it was made with, and the
   * compatibility check refuses a breaking payload change without a new major.
   */
  version?: VersionString | undefined;
  /** One line per version, shown in the manifest; it must cover `version`. */
  changelog?: Readonly<Record<string, string>> | undefined;
  /** Earlier majors still served through a payload migration (`earlierTriggerMajor`), newest first. */
  earlier?: readonly EarlierTriggerMajor[] | undefined;
  /** Set on an earlier major the registry serves (and on a current one that is retiring): what replaces it and until when. */
  deprecated?: Deprecation | undefined;
  title: string;
  description: string;
  /** For models: what starts the agent, what the variables hold. */
  agentDescription: string;
  keywords: readonly string[];
  /** The delivery body as the provider sends it; what it parses to (a new major may transform it) is what mappings read. */
  event: Event;
  /** Default payload-to-variable mapping: name to RFC 9535 JSONPath over the validated payload. */
  variables: Readonly<Record<string, string>>;
  /** Options chosen when subscribing (which statuses, which targets...). */
  setup: Setup;
  verify: SignatureScheme;
  /** Where the replay window reads the delivery's time. */
  eventTime: EventTimeSource;
  /** The event id and time of a validated payload. */
  parse(event: z.output<Event>): EventFacts;
  /**
   * Why this event is not one the subscription asked for (its setup options
   * or the embedder's constraints, such as project scoping), or undefined
   * when it is. Checked at intake even where the provider filters too.
   */
  skipReason?(event: z.output<Event>, setup: z.output<Setup>, constraints: Constraints): string | undefined;
  /**
   * A delivery body as the provider would send it, with the given event id
   * and time: shown by `describe`, sent by `triggers test`, and checked by a
   * test to pass `event` and to `parse` back to the same facts.
   */
  example?(facts: EventFacts): ReturnedValue<Event>;
  /** Reading the webhook at the provider, and its test delivery (`triggers status`, `triggers test`). */
  webhook?: WebhookAdmin;
  /** Creates the webhook (and any rule) at the provider and returns its ids and signing secret. */
  provision(context: ProvisionContext<z.output<Setup>>): Promise<ProvisionResult>;
  /**
   * Deletes what `provision` created, in the order the provider needs, and
   * says what it did to each: deleted now, or already gone there.
   */
  remove(context: RemoveContext): Promise<RemovedItem[]>;
}

/** A defined trigger, read-only, typed by its event and setup schemas and its literal id. */
export type Trigger<
  Event extends z.ZodType = z.ZodType,
  Setup extends z.ZodType = z.ZodType,
  Owner extends Integration = Integration,
  Id extends TriggerId<Owner['id']> = TriggerId<Owner['id']>,
> = Readonly<TriggerDefinition<Event, Setup, Owner, Id>>;

/** Any trigger, whatever its schemas: what a registry holds. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds triggers of every payload and setup type.
export type AnyTrigger = Trigger<any, any>;

/**
 * Checks a trigger definition where it is written (id shape, event time
 * source, default variables) rather than on the first delivery, and freezes
 * it. Keeps the literal id in the trigger's type; the event schema is a
 * `const` parameter so that `example` may return literals without `as const`.
 * `event` and `setup` may be getters, each built when first read and kept,
 * as a step's `input` and `output` (`defineStep`).
 */
export function defineTrigger<
  const Id extends TriggerId<Owner['id']>,
  const Event extends z.ZodType,
  Setup extends z.ZodType,
  Owner extends Integration,
>(definition: TriggerDefinition<Event, Setup, Owner, Id>): Trigger<Event, Setup, Owner, Id> {
  const [prefix, name] = definition.id.split('.');
  if (prefix !== definition.integration.id || !name || !/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new Error(`Trigger id "${definition.id}" must be "${definition.integration.id}.<event_name>".`);
  }
  const time = definition.eventTime;
  if (time.from === 'signature' ? !definition.verify.signedTime : !(time.maxAgeMs > 0)) {
    throw new Error(
      `Trigger ${definition.id}: eventTime ${time.from} needs ${time.from === 'signature' ? 'a scheme that signs a time (verify.signedTime)' : 'a maxAgeMs above 0'}.`,
    );
  }
  const problem =
    versionProblem(definition) ??
    earlierMajorsProblem(definition) ??
    definedMappingProblem(definition.variables);
  if (problem) throw new Error(`Trigger ${definition.id}: ${problem}`);
  // Getters stay getters, each run once (see `copyWithGettersRunOnce`).
  return Object.freeze(copyWithGettersRunOnce(definition));
}
