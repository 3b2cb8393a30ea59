import { FIRST_VERSION, latestMajor } from '../step/step-version.js';
import { type BreakingKind, breakingSchemaChanges, type SchemaRole } from './schema-changes.js';

/** One major of a step or trigger as a manifest lists it: the schemas saved configurations of it depend on. */
interface ListedMajor {
  version: string;
  deprecated?: { endsOn: string; replacement: string } | undefined;
  /** Role of each schema: an input (or setup) is what callers send, an output (or payload) what mappings read. */
  schemas: Record<string, { role: SchemaRole; schema: unknown }>;
}

/** One breaking change the check found, with the message a step author reads in CI. */
export interface BreakingChange {
  /** `ticketing.list_tickets@1`: the step or trigger and the major whose saved configurations it breaks. */
  reference: string;
  /** Where: `input.created_after`, `output.tickets[*].id`, `payload.ticket.status`; empty for a removed major. */
  path: string;
  kind: BreakingKind | 'major_removed';
  message: string;
}

/** The parts of a manifest the check reads: what every manifest version since the first has. */
export interface ComparableManifest {
  steps: readonly ComparableStep[];
  triggers: readonly ComparableTrigger[];
}

interface ComparableStep {
  id: string;
  aliases?: readonly string[] | undefined;
  version?: string | undefined;
  deprecated?: { endsOn: string; replacement: string } | undefined;
  input: unknown;
  output: unknown;
  earlier?:
    | readonly {
        version: string;
        deprecated: { endsOn: string; replacement: string };
        input: unknown;
        output: unknown;
      }[]
    | undefined;
}

interface ComparableTrigger {
  id: string;
  version?: string | undefined;
  deprecated?: { endsOn: string; replacement: string } | undefined;
  payload: unknown;
  setup: unknown;
  earlier?:
    | readonly { version: string; deprecated: { endsOn: string; replacement: string }; payload: unknown }[]
    | undefined;
}

/** What a listed major (the latest or an earlier one) holds besides its schemas. */
interface MajorEntry {
  version?: string | undefined;
  deprecated?: { endsOn: string; replacement: string } | undefined;
}

/** The latest major and each earlier one of a manifest's step or trigger, by major, with the schemas `schemasOf` reads. */
function listedMajors<Entry extends MajorEntry>(
  latest: Entry,
  earlier: readonly Entry[] | undefined,
  schemasOf: (entry: Entry) => ListedMajor['schemas'],
): Map<number, ListedMajor> {
  const majors = new Map<number, ListedMajor>();
  for (const entry of [latest, ...(earlier ?? [])]) {
    majors.set(latestMajor(entry), {
      version: entry.version ?? FIRST_VERSION,
      deprecated: entry.deprecated,
      schemas: schemasOf(entry),
    });
  }
  return majors;
}

/** Every major a manifest's step serves, by major. */
function stepMajors(step: ComparableStep): Map<number, ListedMajor> {
  return listedMajors<MajorEntry & { input: unknown; output: unknown }>(step, step.earlier, (entry) => ({
    input: { role: 'input', schema: entry.input },
    output: { role: 'output', schema: entry.output },
  }));
}

/**
 * Every major a manifest's trigger serves, by major. An earlier major shares
 * the latest's setup (one provider webhook serves both), so its setup is
 * checked against the latest's; its payload is its own.
 */
function triggerMajors(trigger: ComparableTrigger): Map<number, ListedMajor> {
  return listedMajors<MajorEntry & { payload: unknown }>(trigger, trigger.earlier, (entry) => ({
    setup: { role: 'input', schema: trigger.setup },
    payload: { role: 'output', schema: entry.payload },
  }));
}

const KIND_WORDS: Record<BreakingKind, string> = {
  required_added: 'a new required field',
  field_removed: 'a removed field',
  type_narrowed: 'a narrowed type',
  enum_narrowed: 'a narrowed enum',
  bound_narrowed: 'a narrowed bound',
  default_changed: 'a changed default',
  path_removed: 'a removed path',
  path_retyped: 'a retyped path',
  path_made_optional: 'a path that may now be missing',
};

/**
 * The breaking changes from the last release's manifest to the current
 * one: for every major of every step and trigger the release served,
 * either the current manifest serves it with schemas a saved configuration
 * still works against, or its deprecation window has ended (`endsOn` before
 * `today`). A change that breaks belongs in a new major, with the old one
 * kept (docs/writing-an-integration.md#versions).
 */
export function breakingChanges(
  released: ComparableManifest,
  current: ComparableManifest,
  today: string = new Date().toISOString().slice(0, 10),
): BreakingChange[] {
  const found: BreakingChange[] = [];
  const currentStep = (id: string) =>
    current.steps.find((step) => step.id === id) ?? current.steps.find((step) => step.aliases?.includes(id));
  for (const step of released.steps) {
    const now = currentStep(step.id);
    compareMajors(step.id, 'step', stepMajors(step), now && stepMajors(now), today, found);
  }
  for (const trigger of released.triggers) {
    const now = current.triggers.find((candidate) => candidate.id === trigger.id);
    compareMajors(trigger.id, 'trigger', triggerMajors(trigger), now && triggerMajors(now), today, found);
  }
  return found;
}

function compareMajors(
  id: string,
  noun: 'step' | 'trigger',
  released: Map<number, ListedMajor>,
  current: Map<number, ListedMajor> | undefined,
  today: string,
  found: BreakingChange[],
): void {
  for (const [major, was] of released) {
    const reference = `${id}@${major}`;
    const now = current?.get(major);
    if (!now) {
      if (was.deprecated && was.deprecated.endsOn < today) continue;
      const window = was.deprecated
        ? `its deprecation window ends on ${was.deprecated.endsOn}`
        : 'it was never deprecated';
      found.push({
        reference,
        path: '',
        kind: 'major_removed',
        message: `${noun} ${reference}: major ${major} is no longer served, but ${window}: keep it (as an earlier major with a migration) until then.`,
      });
      continue;
    }
    for (const [part, { role, schema }] of Object.entries(was.schemas)) {
      for (const change of breakingSchemaChanges(schema, now.schemas[part]?.schema, role)) {
        const path = change.path ? `${part}.${change.path}` : part;
        found.push({
          reference,
          path,
          kind: change.kind,
          message: `${noun} ${reference}: ${path}: ${change.kind} (${KIND_WORDS[change.kind]}: ${change.detail}) is breaking without a new major (${was.version} -> ${now.version}).`,
        });
      }
    }
  }
}
