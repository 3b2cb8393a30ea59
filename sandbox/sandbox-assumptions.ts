import * as z from 'zod';
import { InputError } from '../src/errors/index.js';
import { AnzDataAssumptions } from './anz-data/anz-data-assumptions.js';
import { ContactDataAssumptions } from './contact-data/contact-data-assumptions.js';
import { DeploymentsAssumptions } from './deployments/deployments-assumptions.js';
import { GovernanceAssumptions } from './governance/governance-assumptions.js';
import { TicketingAssumptions } from './ticketing/ticketing-assumptions.js';

/**
 * Every assumption of every emulator, by integration id: what the spec and
 * the provider facts leave open and the sandbox invents. Each emulator
 * keeps its own in `<provider>-assumptions.ts`, with the reason per entry;
 * the "Sandbox assumptions" table of docs/sandbox.md lists them.
 */
export const SandboxAssumptions = z
  .object({
    ticketing: TicketingAssumptions.default(TicketingAssumptions.parse({})),
    anz_data: AnzDataAssumptions.default(AnzDataAssumptions.parse({})),
    contact_data: ContactDataAssumptions.default(ContactDataAssumptions.parse({})),
    governance: GovernanceAssumptions.default(GovernanceAssumptions.parse({})),
    deployments: DeploymentsAssumptions.default(DeploymentsAssumptions.parse({})),
  })
  .strict();
export type SandboxAssumptions = z.output<typeof SandboxAssumptions>;
/** The assumptions as a caller writes them (`assume` of `startSandbox`): every one optional, defaults filled in. */
export type SandboxAssumptionsInput = z.input<typeof SandboxAssumptions>;

/** Checks the settings; a wrong name or value is an InputError naming each, with nothing started. */
export function resolveAssumptions(input: unknown = {}): SandboxAssumptions {
  const parsed = SandboxAssumptions.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => ({
    path: ['assume', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw new InputError(
    `Invalid sandbox assumption: ${fields.map((f) => `${f.path} (${f.message})`).join(', ')}.`,
    fields,
  );
}

/**
 * `integration.name=value` (the CLI's `--assume`), into the nested form.
 * The value is read as JSON when it is (true, 7200), else as text.
 */
export function assumptionFromFlag(flag: string): SandboxAssumptionsInput {
  const match = /^([a-z_]+)\.([a-z_]+)=(.*)$/s.exec(flag);
  if (!match) {
    throw new InputError(
      `--assume takes integration.name=value, e.g. governance.second_invite=replace; got "${flag}".`,
      [{ path: 'assume', message: 'expected integration.name=value' }],
    );
  }
  const [, integration = '', name = '', raw = ''] = match;
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Plain text, such as an enum value or a path.
  }
  return { [integration]: { [name]: value } } as SandboxAssumptionsInput;
}

/** Merges `--assume` flags, later ones winning, and checks the result. */
export function assumptionsFromFlags(flags: readonly string[]): SandboxAssumptions {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const flag of flags) {
    for (const [integration, settings] of Object.entries(assumptionFromFlag(flag))) {
      merged[integration] = { ...merged[integration], ...(settings as Record<string, unknown>) };
    }
  }
  return resolveAssumptions(merged);
}
