/**
 * Where the paths of an earlier major's output (or event payload) are in the
 * latest major's, so a saved mapping can be rewritten on upgrade instead of
 * reading paths that moved. Keys and values are paths of names and `[*]`
 * from the root: `'$.event.current': '$.event.assignee_id'` moves the path
 * and everything under it; `null` says it has no counterpart (removed, or
 * retyped so a mapping of it would read something else). A path neither
 * listed nor under a listed one reads the same in both majors.
 */
export type PathMap = Readonly<Record<string, string | null>>;

/** One step of a path: a member name, an array index, or a wildcard (`[*]`, `.*`). */
type Segment = { name: string } | { index: number } | { any: true };

/** Each segment form, read at the start of what is left of a path: the segment, and how many characters it took. */
const SEGMENT_FORMS: readonly [RegExp, (match: RegExpExecArray) => Segment][] = [
  [/^(?:\[\*\]|\.\*)/, () => ({ any: true })],
  [/^\.([A-Za-z_][A-Za-z0-9_]*)/, (match) => ({ name: match[1]! })],
  [/^\[(0|[1-9]\d{0,8})\]/, (match) => ({ index: Number(match[1]) })],
  [
    /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/,
    (match) => ({ name: (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1') }),
  ],
];

/**
 * The segments of a JSONPath made of names (`.a`, `['a']`), indexes (`[0]`)
 * and wildcards, or undefined for any other form (descendants `..`,
 * filters, slices, unions), which no path map can rewrite with certainty.
 */
export function pathSegments(path: string): Segment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Segment[] = [];
  let rest = path.slice(1);
  while (rest) {
    const form = SEGMENT_FORMS.map(([pattern, read]) => [pattern.exec(rest), read] as const).find(
      ([match]) => match,
    );
    if (!form) return undefined;
    const [match, read] = form;
    segments.push(read(match!));
    rest = rest.slice(match![0].length);
  }
  return segments;
}

/** The segments written back as a JSONPath, names in shorthand where RFC 9535 allows it. */
export function pathText(segments: readonly Segment[]): string {
  return `$${segments
    .map((segment) => {
      if ('any' in segment) return '[*]';
      if ('index' in segment) return `[${segment.index}]`;
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment.name)
        ? `.${segment.name}`
        : `['${segment.name.replace(/[\\']/g, '\\$&')}']`;
    })
    .join('')}`;
}

/** What becomes of one saved path: rewritten (or kept, `to` equal to the path), or no counterpart and why. */
export type PathOutcome = { to: string } | { reason: string };

/** How a path relates to one key of the map: the key is at or above it, it reads through the key partly, or neither. */
function relation(path: readonly Segment[], key: readonly Segment[]): 'under' | 'partial' | 'none' {
  const shared = Math.min(path.length, key.length);
  for (let at = 0; at < shared; at += 1) {
    const mine = path[at]!;
    const theirs = key[at]!;
    if ('any' in theirs) continue;
    if ('any' in mine) return 'partial';
    if ('name' in mine !== 'name' in theirs) return 'none';
    if (
      'name' in mine
        ? mine.name !== (theirs as { name: string }).name
        : mine.index !== (theirs as { index: number }).index
    )
      return 'none';
  }
  return path.length >= key.length ? 'under' : 'partial';
}

/** The key's target with its wildcards filled by the path's own segments at the key's wildcard places. */
function moved(path: readonly Segment[], key: readonly Segment[], target: readonly Segment[]): Segment[] {
  const filled = key.flatMap((segment, at) => ('any' in segment ? [path[at]!] : []));
  const result = target.map((segment) => ('any' in segment ? (filled.shift() ?? segment) : segment));
  return [...result, ...path.slice(key.length)];
}

/**
 * One saved path through the map: the longest key at or above it decides
 * (moved with everything under it, or no counterpart); a path that reads
 * a listed key only partly (`$.event` when `$.event.current` moved, or a
 * wildcard across it) and a path of a form no map can follow have none.
 */
export function rewritePath(path: string, paths: PathMap): PathOutcome {
  const entries = Object.entries(paths);
  if (!entries.length) return { to: path };
  const segments = pathSegments(path);
  if (!segments) return { reason: 'not a plain path (descendants, filters or slices): write it again' };
  let best: { key: Segment[]; target: string | null } | undefined;
  for (const [keyText, target] of entries) {
    const key = pathSegments(keyText)!;
    const seen = relation(segments, key);
    if (seen === 'partial') return { reason: `it reads through ${keyText}, which moved in the new major` };
    if (seen === 'under' && (!best || key.length > best.key.length)) best = { key, target };
  }
  if (!best) return { to: path };
  if (best.target === null) return { reason: `${pathText(best.key)} has no counterpart in the new major` };
  return { to: pathText(moved(segments, best.key, pathSegments(best.target)!)) };
}

/** Why a path map is not well formed (a key or target that is not a plain path), or undefined. */
export function pathMapProblem(paths: PathMap): string | undefined {
  for (const [key, target] of Object.entries(paths)) {
    const keySegments = pathSegments(key);
    if (!keySegments || keySegments.some((segment) => 'index' in segment))
      return `path map key "${key}" must be a path of names and [*]`;
    const targetSegments = target === null ? [] : pathSegments(target);
    if (!targetSegments || targetSegments.some((segment) => 'index' in segment))
      return `path map target "${target}" must be a path of names and [*], or null`;
    const wildcards = (segments: Segment[]) => segments.filter((segment) => 'any' in segment).length;
    if (target !== null && wildcards(targetSegments) !== wildcards(keySegments))
      return `path map entry "${key}" -> "${target}" must keep the same number of [*]`;
  }
  return undefined;
}
