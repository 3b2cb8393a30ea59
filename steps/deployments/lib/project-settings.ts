import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

const command = (what: string) =>
  z.string().max(256).nullable().optional().describe(`${what}; null for the default.`);

/**
 * Build settings, as a deployment overrides them (`projectSettings`) and as
 * a project keeps them: one schema for both, in our snake_case.
 */
export const BuildSettings = builtOnce(() =>
  z
    .object({
      framework: z
        .string()
        .regex(/^[a-z0-9-]{1,50}$/)
        .nullable()
        .optional()
        .describe('Framework preset, e.g. "nextjs" or "vite"; null for none.'),
      build_command: command('Build command'),
      install_command: command('Install command'),
      output_directory: command('Directory holding the build output'),
      root_directory: z
        .string()
        .max(256)
        .nullable()
        .optional()
        .describe('Directory of the app inside the repository; null for the repository root.'),
      dev_command: command('Development command'),
      node_version: z
        .string()
        .regex(/^\d{2}\.x$/, 'a major version such as "20.x"')
        .optional()
        .describe('Node.js major version for the build, e.g. "20.x".'),
    })
    .strict(),
);
export type BuildSettings = z.infer<ReturnType<typeof BuildSettings>>;

/** Our snake_case settings in the provider's casing (`projectSettings`, and a project's own fields). */
const SETTING_NAMES = {
  framework: 'framework',
  build_command: 'buildCommand',
  install_command: 'installCommand',
  output_directory: 'outputDirectory',
  root_directory: 'rootDirectory',
  dev_command: 'devCommand',
  node_version: 'nodeVersion',
} as const;

/** The settings given, in the provider's field names; a setting not given is not sent. */
export function toProviderSettings(settings: BuildSettings | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [SETTING_NAMES[key as keyof typeof SETTING_NAMES], value]),
  );
}
