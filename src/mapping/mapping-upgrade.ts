import { type PathMap, rewritePath } from './path-map.js';

/** A saved variable whose path moved: what it read, and what it reads in the new major. */
export interface MovedPath {
  variable: string;
  from: string;
  to: string;
}

/** A variable with no counterpart in the new major: left out of the upgraded mapping, and said why. */
export interface UnmatchedPath {
  variable: string;
  path: string;
  reason: string;
}

/** A saved mapping as the new major reads it, and what moved or has no counterpart on the way. */
export interface UpgradedMapping {
  /** What to save with the new major: the entries that differ from its default variables. */
  mapping: Record<string, string>;
  moved: MovedPath[];
  unmatched: UnmatchedPath[];
}

/** What upgrading a saved mapping across a major reads. */
export interface MappingUpgrade {
  /** The mapping as saved: variable to path, over the earlier major's defaults. */
  saved: Readonly<Record<string, string>>;
  /** The earlier major's default variables, which the saved mapping was made over. */
  earlierDefaults: Readonly<Record<string, string>>;
  /** The new major's default variables, which the upgraded mapping is saved over. */
  latestDefaults: Readonly<Record<string, string>>;
  /** The earlier major's path map to the new one. */
  paths: PathMap;
}

/**
 * A saved mapping moved across a major so the same variables read the same
 * values: every variable the earlier major gave (its defaults with the
 * saved entries over them) goes through the path map, and the upgraded
 * mapping holds each one the new major's defaults would not give alike. A
 * default of the earlier major the new one dropped is kept that way too. A
 * variable with no counterpart is not saved and is listed in `unmatched`,
 * never dropped unsaid. Pure: a dry run and an upgrade compute the same.
 */
export function upgradeMapping(upgrade: MappingUpgrade): UpgradedMapping {
  const result: UpgradedMapping = { mapping: {}, moved: [], unmatched: [] };
  const effective = { ...upgrade.earlierDefaults, ...upgrade.saved };
  for (const [variable, path] of Object.entries(effective)) {
    const outcome = rewritePath(path, upgrade.paths);
    if ('reason' in outcome) {
      result.unmatched.push({ variable, path, reason: outcome.reason });
      continue;
    }
    if (outcome.to !== path) result.moved.push({ variable, from: path, to: outcome.to });
    if (upgrade.latestDefaults[variable] !== outcome.to) result.mapping[variable] = outcome.to;
  }
  return result;
}
