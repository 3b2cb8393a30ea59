import * as z from 'zod';
import { builtOnce, definedOnly, PathSegment } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

export const EnvKey = builtOnce(() =>
  z
    .string()
    .regex(
      /^[A-Za-z_][A-Za-z0-9_]{0,255}$/,
      'a variable name: letters, digits and _, not starting with a digit',
    )
    .describe('Variable name, e.g. DATABASE_URL.'),
);

export const EnvId = builtOnce(() =>
  PathSegment()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a variable id from List Env Vars')
    .describe('Id of the variable, from List Env Vars or Create Env Var.'),
);

export const EnvTargets = builtOnce(() =>
  z
    .array(z.enum(['production', 'preview', 'development']))
    .min(1)
    .max(3)
    .refine((targets) => new Set(targets).size === targets.length, 'each target once')
    .describe('Environments that get the variable: production, preview and/or development.'),
);

/**
 * The types a caller may create: plain (readable by anyone on the project),
 * encrypted (readable in the dashboard), sensitive (write-only: never
 * readable again). The provider's `system` and legacy `secret` types are
 * read, never made.
 */
export const EnvType = builtOnce(() =>
  z
    .enum(['plain', 'encrypted', 'sensitive'])
    .describe(
      'plain, encrypted or sensitive. sensitive values can never be read back, and cannot target development.',
    ),
);

/** Only these values are shown; every other type's value is withheld from output and variables. */
const READABLE_TYPES = new Set(['plain']);

export const EnvGitBranch = builtOnce(() =>
  z
    .string()
    .min(1)
    .max(250)
    .describe('Only deployments of this git branch get it (needs target ["preview"]).'),
);

const ProviderEnv = builtOnce(() =>
  z
    .object({
      id: z.string(),
      key: z.string(),
      type: z.string(),
      value: z.string().nullable().optional(),
      target: z
        .union([z.array(z.string()), z.string()])
        .nullable()
        .optional(),
      gitBranch: z.string().nullable().optional(),
      comment: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      updatedAt: z.number().optional(),
    })
    .loose(),
);

export const EnvVar = builtOnce(() =>
  z.object({
    id: z.string().describe('Variable id, for Update Env Var and Delete Env Var.'),
    key: z.string().describe('Variable name.'),
    type: z.string().describe('plain, encrypted, sensitive, secret (legacy) or system.'),
    targets: z.array(z.string()).describe('Environments that get it.'),
    git_branch: z.string().nullable().describe('The one preview branch it applies to, or null for all.'),
    value: z
      .string()
      .nullable()
      .describe('The value, for plain variables only; null for every other type (withheld, never shown).'),
    value_hidden: z.boolean().describe('True when the value exists but is withheld because of its type.'),
    comment: z.string().nullable().describe('What the variable is for, when someone said.'),
    created_at: z.string().nullable().describe('ISO 8601 creation time.'),
    updated_at: z.string().nullable().describe('ISO 8601 time of the last change.'),
  }),
);
export type EnvVar = z.infer<ReturnType<typeof EnvVar>>;

/**
 * The provider's variable in our shape. A value is kept only when the
 * variable's type is plain: encrypted values come back as ciphertext, and
 * secret or sensitive ones must never reach output, logs or variables, even
 * if a provider (or a proxy) sent them in clear.
 */
export function toEnvVar(raw: unknown, where = 'env'): EnvVar {
  const value = readAnswer(ProviderEnv(), raw, where, 'an environment variable');
  const readable = READABLE_TYPES.has(value.type);
  const target = value.target ?? [];
  return {
    id: value.id,
    key: value.key,
    type: value.type,
    targets: Array.isArray(target) ? target : [target],
    git_branch: value.gitBranch ?? null,
    value: readable ? (value.value ?? null) : null,
    value_hidden: !readable,
    comment: value.comment ?? null,
    created_at: isoTime(value.createdAt),
    updated_at: isoTime(value.updatedAt),
  };
}

/** A value to store; never echoed back by any step. */
export const EnvValue = builtOnce(() =>
  z
    .string()
    .max(65_536)
    .describe('The value to store. It is never shown in any output afterwards unless the type is plain.'),
);

export const EnvComment = builtOnce(() =>
  z.string().max(500).describe('What the variable is for (at most 500 characters).'),
);

/** The fields create and update share, as they arrive in an input. */
export interface EnvFields {
  key?: string | undefined;
  value?: string | undefined;
  type?: z.infer<ReturnType<typeof EnvType>> | undefined;
  targets?: z.infer<ReturnType<typeof EnvTargets>> | undefined;
  git_branch?: string | undefined;
  comment?: string | undefined;
}

/** The provider's rules, checked before anything is sent: a sensitive value never goes to development; a branch is for previews. */
export function envRuleIssues(fields: EnvFields): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  if (fields.type === 'sensitive' && fields.targets?.includes('development')) {
    issues.push({ path: ['targets'], message: 'sensitive variables cannot target development' });
  }
  if (fields.git_branch !== undefined && (fields.targets?.length !== 1 || fields.targets[0] !== 'preview')) {
    issues.push({ path: ['git_branch'], message: 'a git_branch needs targets ["preview"]' });
  }
  return issues;
}

/** The fields in the provider's names; those not given are not sent. */
export function toProviderEnv(fields: EnvFields): Record<string, unknown> {
  return definedOnly({
    key: fields.key,
    value: fields.value,
    type: fields.type,
    target: fields.targets,
    gitBranch: fields.git_branch,
    comment: fields.comment,
  });
}

/** The output of steps that answer one variable. */
export const OneEnvVar = builtOnce(() =>
  z.object({ env_var: EnvVar().describe('The variable; its value only when plain.') }),
);
