import { ApiError } from './api-error.js';
import { pathOf } from './api-routes.js';
import type { StreamedTriggerEvent } from './api-types.js';
import type { BuilderClient } from './builder-client.js';

/**
 * The tenant's trigger events as they arrive (`GET /v1/events`, server-sent
 * events). Read with fetch, not EventSource: EventSource cannot send the
 * Authorization header, and the token must not go into a URL, where logs
 * and history would keep it. Reconnects after a dropped stream until
 * stopped, waiting longer after each failure in a row; stops for good when
 * the token is refused (401, 403): a new token means a new watch, which the
 * elements start when the host calls `configure()` again.
 */
export function watchTriggerEvents(
  client: BuilderClient,
  onEvent: (event: StreamedTriggerEvent) => void,
  onProblem: (error: unknown) => void,
): AbortController {
  const stop = new AbortController();
  void (async () => {
    let failures = 0;
    while (!stop.signal.aborted) {
      try {
        await readStream(
          client,
          stop.signal,
          () => {
            failures = 0;
          },
          onEvent,
        );
      } catch (error) {
        if (stop.signal.aborted) return;
        onProblem(error);
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, MAX_RETRY_MS)));
    }
  })();
  return stop;
}

/** The longest wait between reconnects after failures in a row. */
const MAX_RETRY_MS = 30_000;

async function readStream(
  client: BuilderClient,
  signal: AbortSignal,
  onOpen: () => void,
  onEvent: (event: StreamedTriggerEvent) => void,
): Promise<void> {
  const response = await client.open(pathOf('triggerEvents'), 'text/event-stream', signal);
  onOpen();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.search(/\r?\n\r?\n/);
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(buffer.slice(end).match(/^\r?\n\r?\n/)![0].length + end);
      dispatch(block, onEvent);
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
}

function dispatch(block: string, onEvent: (event: StreamedTriggerEvent) => void): void {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (name !== 'trigger' || !data.length) return;
  try {
    onEvent(JSON.parse(data.join('\n')) as StreamedTriggerEvent);
  } catch {
    // A line that is not JSON is no event of ours.
  }
}
