import { InputError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';
import { closestName } from '../values/unknown-field-suggestion.js';

/**
 * A constraint the integration does not honour is refused, not ignored: an
 * embedder who writes `projects` on a ticketing step, or `project` for
 * `projects`, would otherwise believe a limit holds that nothing enforces.
 * @throws InputError naming each such key, with the closest known one.
 */
export function checkConstraints(
  owner: string,
  integration: Integration,
  constraints: Readonly<Record<string, readonly string[]>> | undefined,
): void {
  const known = Object.keys(integration.constraints ?? {});
  const unknown = Object.keys(constraints ?? {}).filter((key) => !known.includes(key));
  if (!unknown.length) return;
  const honoured = known.length ? `it honours ${known.join(', ')}` : `${integration.id} honours none`;
  throw new InputError(
    `${owner} does not apply the constraint${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: ${honoured}. Nothing was sent.`,
    unknown.map((key) => {
      const near = closestName(key, known);
      return {
        path: `constraints.${key}`,
        message: near ? `not applied; did you mean ${near}?` : 'not applied',
      };
    }),
  );
}
