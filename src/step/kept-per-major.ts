import { latestMajor } from './step-version.js';

/**
 * What `owner` (a step or a trigger) offers at an earlier major it serves,
 * built by `build` on the first ask and kept in `kept`; undefined when
 * `earlier` holds no such major (and nothing is kept for it, so asking for
 * majors that do not exist grows nothing).
 */
export function keptPerMajor<Owner extends object, Earlier extends { readonly version: string }, Built>(
  kept: WeakMap<Owner, Map<number, Built>>,
  owner: Owner,
  earlier: readonly Earlier[] | undefined,
  major: number,
  build: (earlier: Earlier) => Built,
): Built | undefined {
  const found = kept.get(owner)?.get(major);
  if (found) return found;
  const entry = earlier?.find((candidate) => latestMajor(candidate) === major);
  if (!entry) return undefined;
  const made = build(entry);
  const majors = kept.get(owner) ?? new Map<number, Built>();
  majors.set(major, made);
  kept.set(owner, majors);
  return made;
}
