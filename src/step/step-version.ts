/**
 * Versions of steps and triggers (issue 41). A step is `major.minor`: a
 * minor adds what no saved configuration can notice (an optional input
 * field, an output path), a major changes what one could (a renamed or newly
 * required field, a narrowed enum, a removed output path). What a builder
 * saved names its major (`ticketing.list_tickets@1`) and keeps running it;
 * a bare id means the latest major.
 */

/** `major.minor`, each a whole number without leading zeros (`1.0`, `2.3`). */
export type VersionString = `${number}.${number}`;

/** What a step or trigger that never declared a version is: its first. */
export const FIRST_VERSION = '1.0' satisfies VersionString;

const VERSION_FORM = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;

/** The major of `2.3` (2), or undefined when the text is not `major.minor` with a major of 1 or more. */
export function majorOfVersion(version: string): number | undefined {
  const match = VERSION_FORM.exec(version);
  const major = match ? Number(match[1]) : 0;
  return major >= 1 ? major : undefined;
}

/** The major a step, trigger or earlier major is at: 1 for one that never declared a version. */
export function latestMajor(versioned: { readonly version?: string | undefined }): number {
  return majorOfVersion(versioned.version ?? FIRST_VERSION) ?? 1;
}

/** When an earlier major stops being served, and what replaces it: shown on every surface that shows the major. */
export interface Deprecation {
  /** The reference to use instead (`ticketing.list_tickets@2`). */
  replacement: string;
  /** The last day (UTC, `YYYY-MM-DD`) the major is served; the compatibility check refuses to drop it sooner. */
  endsOn: string;
}

/**
 * A step reference as saved configurations and callers write it: an id, or
 * an id and a major (`ticketing.list_tickets@1`). The id is whatever stands
 * before the `@`; the major is undefined for a bare id (the latest).
 */
export interface StepReference {
  id: string;
  major: number | undefined;
}

const REFERENCE_MAJOR = /^[1-9]\d{0,5}$/;

/** Splits `id@major`; undefined when the part after `@` is not a major (1 or more, no leading zero). */
export function parseReference(reference: string): StepReference | undefined {
  const at = reference.lastIndexOf('@');
  if (at < 0) return { id: reference, major: undefined };
  const major = reference.slice(at + 1);
  return REFERENCE_MAJOR.test(major) ? { id: reference.slice(0, at), major: Number(major) } : undefined;
}

/** `ticketing.list_tickets` and 1 -> `ticketing.list_tickets@1`. */
export function referenceOf(id: string, major: number): string {
  return `${id}@${major}`;
}

/**
 * Why a declared version, changelog or deprecation is not well formed, or
 * undefined: checked where the step or trigger is defined, not when a
 * builder first asks for the major.
 */
export function versionProblem(declared: {
  version?: string | undefined;
  changelog?: Readonly<Record<string, string>> | undefined;
}): string | undefined {
  const version = declared.version ?? FIRST_VERSION;
  if (majorOfVersion(version) === undefined)
    return `version "${version}" must be major.minor with a major of 1 or more`;
  for (const [entry, line] of Object.entries(declared.changelog ?? {})) {
    if (majorOfVersion(entry) === undefined) return `changelog entry "${entry}" is not a major.minor version`;
    if (!line.trim()) return `changelog entry "${entry}" is empty`;
  }
  if (declared.changelog && !(version in declared.changelog)) {
    return `the changelog has no line for the current version ${version}`;
  }
  return undefined;
}

const DAY_FORM = /^\d{4}-\d{2}-\d{2}$/;

/** Why a deprecation is not well formed, or undefined. */
export function deprecationProblem(deprecation: Deprecation): string | undefined {
  if (!DAY_FORM.test(deprecation.endsOn) || Number.isNaN(Date.parse(`${deprecation.endsOn}T00:00:00Z`))) {
    return `deprecation endsOn "${deprecation.endsOn}" must be a YYYY-MM-DD day`;
  }
  if (!parseReference(deprecation.replacement)?.major) {
    return `deprecation replacement "${deprecation.replacement}" must name a major (id@major)`;
  }
  return undefined;
}
