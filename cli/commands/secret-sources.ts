import { InputError } from '../../src/errors/input-error.js';

/** Reads a secret from a named environment variable; the value itself never appears on a command line. */
export function secretFromEnv(variable: string | undefined, what: string): string | undefined {
  if (variable === undefined) return undefined;
  const value = process.env[variable];
  if (!value) {
    throw new InputError(`Environment variable ${variable} (for the ${what}) is empty or unset.`, [
      { path: what, message: `set ${variable}` },
    ]);
  }
  return value.trim();
}

/** Reads all of standard input, for `--secret-stdin`. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}
