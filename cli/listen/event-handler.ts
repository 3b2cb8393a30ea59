import { redactForeignError } from '../../src/errors/redaction.js';
import { ToolstepsError } from '../../src/errors/toolsteps-error.js';
import type { HandOff, TriggerEvent } from '../../src/model/trigger-event.js';
import { secretFromEnv } from '../commands/secret-sources.js';
import { integerOption } from '../option-values.js';
import { EXEC_DEADLINE_MS, EXEC_KILL_GRACE_MS, execEvent } from './exec-event.js';
import { FORWARD_DEADLINE_MS, forwardEvent } from './forward-event.js';
import { ForwardTarget } from './forward-target.js';

/** Where a started event goes: forwarded, run through a command, and printed. */
export interface SinkOptions {
  forwardTo?: string;
  forwardToEnv?: string;
  exec?: string;
  /** Seconds. */
  forwardTimeout?: string;
  /** Seconds. */
  execTimeout?: string;
}

export interface SinkSettings {
  target: ForwardTarget | undefined;
  exec: string | undefined;
  forwardDeadlineMs: number;
  execDeadlineMs: number;
}

/** What one hand-off needs beyond its sinks: writing the event's line, deciding, returning the claim. */
const MARGIN_MS = 5_000;

/** Reads and checks the sink options before anything starts; the forward URL stays a ForwardTarget. */
export function sinkSettings(options: SinkOptions): SinkSettings {
  const url = options.forwardTo ?? secretFromEnv(options.forwardToEnv, 'forward-to-env');
  const seconds = { min: 1, max: 3_600 };
  return {
    target: url === undefined ? undefined : ForwardTarget.parse(url),
    exec: options.exec,
    forwardDeadlineMs:
      1000 *
      integerOption(options.forwardTimeout ?? `${FORWARD_DEADLINE_MS / 1000}`, '--forward-timeout', seconds),
    execDeadlineMs:
      1000 * integerOption(options.execTimeout ?? `${EXEC_DEADLINE_MS / 1000}`, '--exec-timeout', seconds),
  };
}

/**
 * The longest one hand-off may take: the forward's deadline, then the
 * command's deadline and its kill grace, then a margin. The intake holds
 * the event's claim this long at most, so a retry never starts a second
 * copy while the first may still run.
 */
export function handOffDeadlineMs(settings: SinkSettings): number {
  const forward = settings.target ? settings.forwardDeadlineMs : 0;
  const exec = settings.exec ? settings.execDeadlineMs + EXEC_KILL_GRACE_MS : 0;
  return forward + exec + MARGIN_MS;
}

/** Hands a started event on, then prints its line: a hand-off that fails prints nothing and is retried. */
export function eventHandler(
  settings: SinkSettings,
): (event: TriggerEvent, handOff?: HandOff) => Promise<void> {
  const secrets = settings.target?.secrets() ?? [];
  return async (event, handOff) => {
    const { target, exec } = settings;
    // Read only when a sink runs: the intake makes the signal when it is first read.
    const signal = target || exec ? handOff?.signal : undefined;
    // Serialised once: the forward's body, the command's stdin and the printed line are the same JSON.
    const json = JSON.stringify(event);
    try {
      if (target) await forwardEvent(target, event, { deadlineMs: settings.forwardDeadlineMs, signal, json });
      if (exec) await execEvent(exec, event, { deadlineMs: settings.execDeadlineMs, signal, json });
    } catch (error) {
      // What fails here is logged and, in `worker`, kept in Redis: nothing of the target's URL may be in it.
      throw ToolstepsError.isInstance(error) ? error.redacted(secrets) : redactForeignError(error, secrets);
    }
    process.stdout.write(`${json}\n`);
  };
}
