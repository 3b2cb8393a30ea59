import type * as z from 'zod';
import { InputError } from '../errors/index.js';
import { upgradeMapping } from '../mapping/mapping-upgrade.js';
import type { AnyStep } from '../step/define-step.js';
import {
  FIRST_VERSION,
  latestMajor,
  majorOfVersion,
  parseReference,
  referenceOf,
} from '../step/step-version.js';
import type { RouteHandler } from './api-call.js';
import type { UpgradeRequest } from './api-schemas.js';
import { mayUseIntegration } from './tenant-guards.js';

/** The latest step's changelog lines of the versions after `major`, oldest first: what upgrading a draft of it changes. */
export function changesAfter(latest: AnyStep, major: number) {
  const versions = Object.keys(latest.changelog ?? {}).filter((version) => majorOfVersion(version)! > major);
  const order = (version: string) => version.split('.').map(Number) as [number, number];
  versions.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
  return versions.map((version) => ({ version, line: latest.changelog![version]! }));
}

const unknownStep = (reference: string) =>
  new InputError(`Unknown step "${reference}".`, [{ path: 'step', message: 'unknown step id' }]);

/**
 * `POST /v1/steps/{stepId}/upgrade`: a draft saved on an earlier major, as
 * the latest major takes it. The input goes through the earlier major's own
 * `upgradeInput`, the pure function the runtime runs on every call of that
 * major, so the upgraded draft does what the saved one did. It is applied to
 * the input as saved, not as the old schema parses it: a draft holds
 * `{{name}}` placeholders a schema would refuse, and defaults the builder
 * never chose would be written into the draft. The migrated input is
 * checked when the draft is next tested or run, against the latest schema.
 * The draft's mapping goes through the major's output path map: a moved
 * path is rewritten, a variable with no counterpart is listed, not kept.
 */
export const upgradeStep: RouteHandler = async (call) => {
  const reference = call.params.stepId!;
  const { input, mapping, replaceVariables } = call.body as z.output<typeof UpgradeRequest>;
  const { registry } = call.server.options;
  // The registry's own refusal for an unknown id or a major it does not serve, naming the ones it does.
  const saved = registry.requireStep(reference);
  if (!mayUseIntegration(call, saved.integration.id)) throw unknownStep(reference);
  const latest = registry.requireStep(parseReference(reference)!.id);
  const current = latestMajor(latest);
  const major = latestMajor(saved);
  const earlier = latest.earlier?.find((candidate) => latestMajor(candidate) === major);
  let migrated: unknown = input;
  try {
    if (earlier) migrated = earlier.upgradeInput(input);
  } catch (error) {
    throw new InputError(
      `${reference}: this input has no form in major ${current}: ${(error as Error).message}`,
      [{ path: 'input', message: 'the migration could not read it' }],
    );
  }
  // The defaults take part unless the draft replaced them: the same variables read the same values after.
  const upgraded = upgradeMapping({
    saved: mapping,
    earlierDefaults: replaceVariables ? {} : saved.variables,
    latestDefaults: replaceVariables ? {} : latest.variables,
    paths: earlier?.outputPaths ?? {},
  });
  return {
    from: referenceOf(latest.id, major),
    reference: referenceOf(latest.id, current),
    version: latest.version ?? FIRST_VERSION,
    input: migrated as Record<string, unknown>,
    ...upgraded,
    changes: changesAfter(latest, major),
    deprecated: earlier ? { ...earlier.deprecated } : null,
  };
};
