import type { Command } from 'commander';

/** The keep-alive flags `worker`, `serve` and `listen` take. */
export interface KeepAliveFlags {
  /** False with `--no-keep-alive`. */
  keepAlive?: boolean;
  keepAliveEvery?: string;
}

/**
 * Adds `--keep-alive-every` and `--no-keep-alive` to a serving command.
 * `byDefault`: `worker` and `serve` keep alive unless told not to; `listen`
 * only when a period is given (flag or `TOOLSTEPS_KEEP_ALIVE_EVERY`).
 */
export function keepAliveFlags(command: Command, byDefault: boolean): Command {
  const every = byDefault
    ? "time between two keep-alive passes over every tenant's connections, shared by every process on one Redis (default 1d, or TOOLSTEPS_KEEP_ALIVE_EVERY)"
    : "keep every tenant's connections alive too, a pass this often, shared by every process on one Redis (or TOOLSTEPS_KEEP_ALIVE_EVERY)";
  return command
    .option('--keep-alive-every <duration>', every)
    .option('--no-keep-alive', 'run no keep-alive passes in this process (or TOOLSTEPS_KEEP_ALIVE=off)');
}
