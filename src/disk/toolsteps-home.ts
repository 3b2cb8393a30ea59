import os from 'node:os';
import path from 'node:path';

/** `$TOOLSTEPS_HOME`, or `~/.toolsteps`. Its own module: the CLI's bin needs it without the file store. */
export function defaultToolstepsHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLSTEPS_HOME || path.join(os.homedir(), '.toolsteps');
}
