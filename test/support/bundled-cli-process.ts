import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one CLI process left: its exit code and output, whatever the code. */
export interface CliProcessResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the bundled CLI at `main` as its own process, with `base` over this
 * process's environment and `env` over both (a value `undefined` unsets
 * the variable), resolving with its exit code and output whatever the code.
 */
export function bundledCliProcess(main: string, base: () => Record<string, string | undefined>) {
  return async (args: string[], env: Record<string, string | undefined> = {}): Promise<CliProcessResult> => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...base(), ...env };
    for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
    try {
      const { stdout, stderr } = await run(process.execPath, [main, ...args], {
        env: childEnv,
        timeout: 60_000,
      });
      return { code: 0, out: stdout, err: stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, out: failed.stdout, err: failed.stderr };
    }
  };
}
