import { spawn } from 'node:child_process';
import { NetworkError, TimeoutError } from '../../src/errors/index.js';
import type { TriggerEvent } from '../../src/triggers/trigger-event.js';

const FORWARD_TIMEOUT_MS = 10_000;
const EXEC_TIMEOUT_MS = 60_000;

/**
 * POSTs the event as JSON to `url`. Anything but a 2xx within the deadline
 * throws, so the intake answers 500 and the provider's retry brings the
 * event again.
 */
export async function forwardEvent(url: string, event: TriggerEvent): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      throw new TimeoutError(`Forwarding to ${url} took over ${FORWARD_TIMEOUT_MS} ms.`);
    throw new NetworkError(`Forwarding to ${url} failed.`, { cause: error });
  }
  await response.body?.cancel();
  if (!response.ok)
    throw new NetworkError(`Forwarding to ${url} answered ${response.status}.`, { status: response.status });
}

/**
 * Runs `command` in a shell with the event as JSON on its stdin. A non-zero
 * exit, or a run past the deadline, throws: the event stays undone.
 */
export function execEvent(command: string, event: TriggerEvent): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      stdio: ['pipe', 'inherit', 'inherit'],
      timeout: EXEC_TIMEOUT_MS,
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`--exec command ended with ${signal ? `signal ${signal}` : `exit code ${code}`}.`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(event)}\n`);
  });
}
