import { spawn } from 'node:child_process';
import { TimeoutError } from '../../src/errors/index.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { injectTraceContext, inSpan } from '../../src/telemetry/index.js';

/** How long one `--exec` command may run, by default. */
export const EXEC_DEADLINE_MS = 60_000;
/** How long a command told to stop (SIGTERM) has before everything it started is killed. */
export const EXEC_KILL_GRACE_MS = 5_000;

export interface ExecOptions {
  deadlineMs?: number;
  killGraceMs?: number;
  /** Stops the command early, as its deadline would. */
  signal?: AbortSignal;
  /** The event as JSON, when the caller has it already: it goes to stdin as it is. */
  json?: string;
}

/** Signals every process of the group; false when none is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The command's environment: this process's, the event's tenant, and the
 * active span's trace context as the environment carries it (`TRACEPARENT`,
 * `TRACESTATE`: the names OpenTelemetry's environment carrier uses), so a
 * command that traces continues the event's trace. A TRACESTATE this
 * process inherited never rides along with another trace's TRACEPARENT.
 */
function commandEnvironment(event: TriggerEvent): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const carrier = injectTraceContext({});
  if (carrier.traceparent) {
    delete env.TRACESTATE;
    for (const [key, value] of Object.entries(carrier)) env[key.toUpperCase()] = value;
  }
  // The event's tenant, so the command starts that tenant's agent and no other's.
  env.TOOLSTEPS_TENANT = event.tenant;
  return env;
}

/**
 * Runs `command` in an INTERNAL span (`exec`) whose context the command
 * gets in its environment; see `runCommand`.
 */
export function execEvent(command: string, event: TriggerEvent, options: ExecOptions = {}): Promise<void> {
  return inSpan('exec', { kind: 'internal', attributes: { 'toolsteps.handoff': 'exec' } }, () =>
    runCommand(command, event, options),
  );
}

/**
 * Runs `command` in a shell with the event as JSON on its stdin. A non-zero
 * exit throws: the event stays undone. The command runs in a process group
 * of its own, so its deadline holds for everything it started: past the
 * deadline the whole group gets SIGTERM, and whatever is left of it after
 * `killGraceMs` (a command that ignores TERM, a grandchild) gets SIGKILL.
 * The promise settles only once the group is gone, so the hand-off never
 * outlives its deadline plus the grace.
 */
function runCommand(command: string, event: TriggerEvent, options: ExecOptions): Promise<void> {
  const deadlineMs = options.deadlineMs ?? EXEC_DEADLINE_MS;
  const graceMs = options.killGraceMs ?? EXEC_KILL_GRACE_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'inherit', 'inherit'],
      env: commandEnvironment(event),
    });
    const pgid = child.pid as number;
    let stopped: string | undefined;
    let leaderExit: string | undefined;
    let kill: NodeJS.Timeout | undefined;
    let killed = false;
    const finish = () => {
      clearTimeout(deadline);
      clearTimeout(kill);
      options.signal?.removeEventListener('abort', onAbort);
      if (stopped)
        reject(new TimeoutError(`--exec command ${stopped}; it and what it started were stopped.`));
      else if (leaderExit === 'exit code 0') resolve();
      else reject(new Error(`--exec command ended with ${leaderExit}.`));
    };
    const stop = (why: string) => {
      if (stopped || leaderExit) return;
      stopped = why;
      signalGroup(pgid, 'SIGTERM');
      kill = setTimeout(() => {
        killed = true;
        signalGroup(pgid, 'SIGKILL');
        if (leaderExit) finish();
      }, graceMs);
    };
    const deadline = setTimeout(() => stop(`ran past its deadline of ${deadlineMs} ms`), deadlineMs);
    const onAbort = () => stop('was told to stop');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      leaderExit = signal ? `signal ${signal}` : `exit code ${code}`;
      // After a stop, the rest of the group may still run: wait for the SIGKILL unless it is gone.
      if (!stopped || killed || !signalGroup(pgid, 0)) finish();
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${options.json ?? JSON.stringify(event)}\n`);
  });
}
