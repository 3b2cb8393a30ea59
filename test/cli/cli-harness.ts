import { vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs the CLI in this process and captures what it wrote to stdout and stderr. */
export async function cli(...args: string[]): Promise<CliResult> {
  let out = '';
  let err = '';
  process.exitCode = undefined;
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await runCli(args);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = undefined;
  }
}

/** The `{error}` document a `--json` run printed on stdout. */
export function jsonError(result: CliResult): { code: string; message: string; [key: string]: unknown } {
  return (JSON.parse(result.out) as { error: { code: string; message: string } }).error;
}
