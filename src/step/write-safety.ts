import { definedOnly } from '../values/defined-only.js';
import { copyWithGettersRunOnce, type FirstReadChecks } from '../values/getters-run-once.js';
import type { StepContext } from './step-context.js';

/** What a step may do to the account; agent exports and the builder use it to ask before a destructive call. */
export type StepAccess = 'read' | 'write' | 'destructive';

/**
 * What the runtime does with a write that failed after its bytes may have
 * reached the provider (the connection broke, a gateway failed), or whose
 * replay was answered. The transport decides whether to replay at all, from
 * the error's `sent` and the request's idempotency (a step's `idempotent`, or
 * the method); the declaration decides what the outcome means:
 *
 * - `refuse` (what every write does without a declaration): a non-idempotent
 *   write is never replayed once it may have landed; the step fails with
 *   `outcome: 'unknown'`, `retryable: false`, and a hint to check before
 *   sending again (the declaration's `hint`, or a generic one).
 * - `gone_means_done`: for deleting something unique (a ticket, an invite, a
 *   membership). The step is idempotent, so the transport replays; a 404 that
 *   answers the replay means our first attempt did the work, and the step
 *   succeeds with `alreadyDone(input, ctx)`.
 * - `reconcile`: after a write that may have landed, or whose replay the
 *   provider refused, the runtime calls `find(input, ctx)` to look at the
 *   provider: an output it returns is the step's output (the work is done);
 *   undefined means not found, and the step fails as under `refuse`. If the
 *   look itself fails, the write's error is kept, with the look's in
 *   `context.lookup`. A step may call the same look before writing, too.
 *
 * A write found done is the runtime's outcome, kept beside the handler, not
 * an error it must let through: a handler's own try/catch needs no rethrow
 * for it, and whatever the handler then returns or throws, the step's output
 * is the settled one (the handler's later requests are refused unsent).
 */
export type OnReplay = 'gone_means_done' | 'refuse' | 'reconcile';

/** What to check before sending a write again when it may have landed; undefined keeps the generic hint. */
export type CheckHint<In> = (input: In) => string | undefined;

/**
 * Fail with `outcome: 'unknown'` once the write may have landed (see
 * `OnReplay`). Named for what the runtime does with the outcome it cannot
 * know: it refuses to guess, and says what a person should check.
 */
export interface RefuseReplay<In> {
  mode: 'refuse';
  hint?: CheckHint<In> | undefined;
}

/**
 * Look at the provider after a write that may have landed (see `OnReplay`).
 * `find` rather than the old `reconcile` field: the mode says what happens,
 * the function says what it does, and a look is all it may do.
 */
export interface ReconcileReplay<In, Out> {
  mode: 'reconcile';
  /** The work an earlier attempt may have done, as the step's output; undefined when there is none (yet). */
  find: (input: In, context: StepContext) => Promise<Out | undefined>;
  hint?: CheckHint<In> | undefined;
}

/** A 404 that answers a replay is our first attempt's work (see `OnReplay`); only an idempotent step is replayed. */
export interface GoneMeansDoneReplay<In, Out> {
  mode: 'gone_means_done';
  /** The output when a replay finds the target already gone. */
  alreadyDone: (input: In, context: StepContext) => Out;
  hint?: CheckHint<In> | undefined;
}

/**
 * One declaration of what a replay of this write means: each mode carries
 * exactly the functions it needs, so a mode without them (or with another
 * mode's) is a type error where the step is written, not at registration.
 */
export type ReplayDeclaration<In, Out> =
  | RefuseReplay<In>
  | ReconcileReplay<In, Out>
  | GoneMeansDoneReplay<In, Out>;

/**
 * A step's write safety as the runtime reads it (src/runtime/settle-replays.ts
 * and run-step.ts): what `defineStep` settles a `replay` declaration into, so
 * steps declared either way run through the same code.
 */
export interface WriteSafety<In, Out> {
  access: StepAccess;
  /** Whether sending the same input twice leaves the provider as sending it once. */
  idempotent: boolean;
  onReplay?: OnReplay | undefined;
  /** For `gone_means_done`: the output when a replay finds the target already gone. */
  alreadyDone?: ((input: In, context: StepContext) => Out) | undefined;
  /** For `reconcile`: finds the work an earlier attempt may have done; undefined when there is none (yet). */
  reconcile?: ((input: In, context: StepContext) => Promise<Out | undefined>) | undefined;
  checkHint?: CheckHint<In> | undefined;
}

const DEPRECATED = ['onReplay', 'alreadyDone', 'reconcile', 'checkHint'] as const;

/**
 * Write safety as a step declares it: `access`, `idempotent` and `replay`
 * are checked together, so the compiler refuses what cannot work. A free,
 * idempotent read has nothing a replay could do twice (no `replay`); only an
 * idempotent step is replayed, so only it may read a replay's 404 as done.
 * A paid, non-idempotent read (an enrichment) may refuse or reconcile.
 */
export type WriteSafetyDeclaration<In, Out> = {
  [Field in (typeof DEPRECATED)[number]]?: ReplacedByReplay;
} & (
  | { access: 'read'; idempotent: true; replay?: NothingToReplay | undefined }
  | {
      access: StepAccess;
      idempotent: false;
      replay?: RefuseReplay<In> | ReconcileReplay<In, Out> | GoneNeedsIdempotent<In, Out> | undefined;
    }
  | { access: Exclude<StepAccess, 'read'>; idempotent: true; replay?: ReplayDeclaration<In, Out> | undefined }
);

/**
 * Types that exist only to be refused, each named by what is wrong, so the
 * compiler's message says it ("property ... is missing", "not assignable to
 * 'replaced by replay ...'") rather than that some union did not match.
 */
export type ReplacedByReplay = 'replaced by replay: declare one or the other';
export interface NothingToReplay {
  // Keeps a written mode a literal, so the message is about the missing property below.
  mode?: OnReplay;
  'a free, idempotent read has nothing a replay could do twice: leave replay out': never;
}
export interface GoneNeedsIdempotent<In, Out> extends Omit<GoneMeansDoneReplay<In, Out>, 'mode'> {
  mode: 'gone_means_done';
  'gone_means_done needs idempotent: true (only an idempotent step is replayed)': never;
}

/**
 * Write safety in the four fields used before `replay`. Still read, with
 * their valid combinations checked when the step is defined; mixing them
 * with `replay` is a type error.
 */
export interface DeprecatedWriteSafety<In, Out> {
  access: StepAccess;
  /** Whether sending the same input twice leaves the provider as sending it once. */
  idempotent: boolean;
  replay?: undefined;
  /** @deprecated Use `replay: { mode }` (same three modes). Removed in 1.0, not before 2027-06-01; see CHANGELOG.md. */
  onReplay?: OnReplay | undefined;
  /** @deprecated Use `replay: { mode: 'gone_means_done', alreadyDone }` (the same function). Removed in 1.0, not before 2027-06-01. */
  alreadyDone?: ((input: In, context: StepContext) => Out) | undefined;
  /** @deprecated Use `replay: { mode: 'reconcile', find }` (the same function). Removed in 1.0, not before 2027-06-01. */
  reconcile?: ((input: In, context: StepContext) => Promise<Out | undefined>) | undefined;
  /** @deprecated Use `hint` in the `replay` declaration (`mode: 'refuse'` if there was no `onReplay`). Removed in 1.0, not before 2027-06-01. */
  checkHint?: CheckHint<In> | undefined;
}

/** What `defineStep` reads of a definition's write safety, whichever way (or, from JavaScript, however) it was declared. */
interface DeclaredEitherWay {
  access: StepAccess;
  idempotent: boolean;
  replay?: unknown;
  onReplay?: unknown;
  alreadyDone?: unknown;
  reconcile?: unknown;
  checkHint?: unknown;
}

/** The four runtime fields a `replay` declaration stands for. */
function settled(
  replay: ReplayDeclaration<never, unknown>,
): Omit<WriteSafety<never, unknown>, 'access' | 'idempotent'> {
  switch (replay.mode) {
    case 'gone_means_done':
      return definedOnly({ onReplay: replay.mode, alreadyDone: replay.alreadyDone, checkHint: replay.hint });
    case 'reconcile':
      return definedOnly({ onReplay: replay.mode, reconcile: replay.find, checkHint: replay.hint });
    default:
      return definedOnly({ onReplay: replay.mode, checkHint: replay.hint });
  }
}

/**
 * The definition's write safety as the runtime reads it: a `replay`
 * declaration settled into the four fields, or the deprecated fields as
 * given, the other fields copied (see `copyWithGettersRunOnce` for getters
 * and `firstReadChecks`). Call `writeSafetyProblem` first.
 */
export function settleWriteSafety<Definition extends DeclaredEitherWay>(
  definition: Definition,
  firstReadChecks: FirstReadChecks<Definition> = {},
): Omit<Definition, 'replay'> {
  // Getters stay getters (a schema given as one is built when first read), each run once.
  const rest = copyWithGettersRunOnce(definition, ['replay'], firstReadChecks);
  const { replay } = definition;
  return replay === undefined
    ? rest
    : Object.assign(rest, settled(replay as ReplayDeclaration<never, unknown>));
}

/** Whether a replay of this step could do or charge anything twice: a free, idempotent read cannot. */
const replayCanRepeat = (definition: DeclaredEitherWay) =>
  definition.access !== 'read' || !definition.idempotent;

/** What is wrong with a `replay` declaration, for JavaScript callers (the type refuses all of it). */
function replayProblem(definition: DeclaredEitherWay, replay: unknown): string | undefined {
  const mentioned = DEPRECATED.filter((field) => definition[field] !== undefined);
  if (mentioned.length > 0) return `replay replaces ${mentioned.join(', ')}: declare one or the other.`;
  const { mode, find, alreadyDone } = (replay ?? {}) as {
    mode?: unknown;
    find?: unknown;
    alreadyDone?: unknown;
  };
  if (mode !== 'refuse' && mode !== 'reconcile' && mode !== 'gone_means_done')
    return `replay.mode must be 'refuse', 'reconcile' or 'gone_means_done', not ${JSON.stringify(mode)}.`;
  if (!replayCanRepeat(definition)) return 'replay is for steps whose replay could act or charge twice.';
  if (mode === 'gone_means_done' && !definition.idempotent)
    return "replay 'gone_means_done' needs an idempotent step (the replay is what finds it gone).";
  if (mode === 'gone_means_done' && typeof alreadyDone !== 'function')
    return "replay 'gone_means_done' needs alreadyDone(input, ctx).";
  return mode === 'reconcile' && typeof find !== 'function'
    ? "replay 'reconcile' needs find(input, ctx)."
    : undefined;
}

/** What is wrong with the deprecated fields: the checks they always had, worded as they were. */
function deprecatedFieldsProblem(definition: DeclaredEitherWay): string | undefined {
  switch (definition.onReplay) {
    case 'gone_means_done':
      if (!definition.idempotent)
        return "onReplay 'gone_means_done' needs an idempotent step (the replay is what finds it gone).";
      return definition.alreadyDone ? undefined : "onReplay 'gone_means_done' needs alreadyDone(input, ctx).";
    case 'reconcile':
      return definition.reconcile ? undefined : "onReplay 'reconcile' needs reconcile(input, ctx).";
    default:
      return definition.onReplay !== undefined && !replayCanRepeat(definition)
        ? 'onReplay is for steps whose replay could act or charge twice.'
        : undefined;
  }
}

/** A write-safety declaration that cannot work, said when the step is defined rather than when it fails. */
export function writeSafetyProblem(definition: DeclaredEitherWay): string | undefined {
  return definition.replay === undefined
    ? deprecatedFieldsProblem(definition)
    : replayProblem(definition, definition.replay);
}
