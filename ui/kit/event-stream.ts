import { ApiError } from './api-error.js';
import { pathOf } from './api-routes.js';
import type { StreamedTriggerEvent } from './api-types.js';
import type { BuilderClient } from './builder-client.js';

/**
 * The tenant's trigger events as they arrive (`GET /v1/events`, server-sent
 * events). Read with fetch, not EventSource: EventSource cannot send the
 * Authorization header, and the token must not go into a URL, where logs
 * and history would keep it. Reconnects after a dropped stream until stopped.
 */
export function watchTriggerEvents(
  client: BuilderClient,
  onEvent: (event: StreamedTriggerEvent) => void,
  onProblem: (error: unknown) => void,
): AbortController {
  const stop = new AbortController();
  void (async () => {
    while (!stop.signal.aborted) {
      try {
        await readStream(client, stop.signal, onEvent);
      } catch (error) {
        if (stop.signal.aborted) return;
        onProblem(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return stop;
}

async function readStream(
  client: BuilderClient,
  signal: AbortSignal,
  onEvent: (event: StreamedTriggerEvent) => void,
): Promise<void> {
  const headers = { ...(await client.headers()), accept: 'text/event-stream' };
  const response = await fetch(client.url(pathOf('triggerEvents')), { headers, signal, credentials: 'omit' });
  if (!response.ok || !response.body) {
    throw ApiError.fromResponse(response.status, await response.json().catch(() => undefined));
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
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
