/**
 * Edit distance between two names (insertions, deletions, substitutions and
 * swaps of neighbours), so `priorty` is one step from `priority`.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `unknown`, when it is close enough to be the
 * likely intent: a few typos, a different case or separator, or one name
 * containing the other (`mail` for `email`). Undefined when nothing is close.
 */
export function closestName(unknown: string, known: readonly string[]): string | undefined {
  const normalize = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');
  const wanted = normalize(unknown);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const candidate = normalize(name);
    const contains = wanted.length >= 3 && (candidate.includes(wanted) || wanted.includes(candidate));
    const distance = contains ? 1 : editDistance(wanted, candidate);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(1, Math.min(3, Math.floor(Math.max(unknown.length, best.name.length) / 3)));
  return best.distance <= allowed ? best.name : undefined;
}

/**
 * The known ids closest to a mistyped one, best first: compared whole and by
 * the part after the dot (`create_tiket` is one typo from
 * `ticketing.create_ticket`), keeping only those close enough to be meant.
 */
export function closestIds(unknown: string, known: readonly string[], limit = 3): string[] {
  const normalize = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');
  const bare = (name: string) => name.slice(name.indexOf('.') + 1);
  const scored = known.map((id) => {
    const distance = Math.min(
      editDistance(normalize(unknown), normalize(id)),
      editDistance(normalize(bare(unknown)), normalize(bare(id))),
    );
    const allowed = Math.max(1, Math.min(3, Math.floor(bare(id).length / 3)));
    return { id, distance, allowed };
  });
  return scored
    .filter((entry) => entry.distance <= entry.allowed)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit)
    .map((entry) => entry.id);
}

/** "unknown field `priorty`; did you mean `priority`?", or without the question when nothing is close. */
export function unknownFieldMessage(field: string, known: readonly string[]): string {
  const suggestion = closestName(field, known);
  if (suggestion) return `unknown field \`${field}\`; did you mean \`${suggestion}\`?`;
  return known.length
    ? `unknown field \`${field}\`; the fields are ${known.map((name) => `\`${name}\``).join(', ')}`
    : `unknown field \`${field}\``;
}
