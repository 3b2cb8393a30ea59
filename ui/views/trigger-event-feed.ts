import { ApiError } from '../client/api-error.js';
import type { StreamedTriggerEvent } from '../client/api-types.js';
import type { BuilderClient } from '../client/builder-client.js';
import { watchTriggerEvents } from '../client/event-stream.js';
import { h } from '../dom/dom.js';

/** What the feed asks of the element that shows it. */
export interface TriggerEventFeedHost {
  /** The element's API client; throws, as the element's own calls do, when none is configured. */
  client(): BuilderClient;
  /** The title of a trigger by id, for the log's lines. */
  titleOf(triggerId: string): string | undefined;
  arrived(event: StreamedTriggerEvent): void;
  failed(error: unknown): void;
  say(message: string): void;
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The events part of `<toolsteps-trigger-setup>`: the log of events received
 * (newest first, parts `events`) and the button (part `wait`) that opens and
 * closes the tenant's event stream. It holds the stream, so the element can
 * close it when it is removed.
 */
export class TriggerEventFeed {
  readonly log: HTMLOListElement;
  readonly waitButton: HTMLButtonElement;
  #stream: AbortController | undefined;

  constructor(private readonly host: TriggerEventFeedHost) {
    this.log = h('ol', {
      part: 'events',
      role: 'log',
      'aria-label': 'Events received',
      className: 'list',
    });
    this.waitButton = h(
      'button',
      { type: 'button', part: 'wait', onclick: () => this.listen(!this.#stream) },
      'Wait for an event',
    );
  }

  /** Opens the stream (and says so) or closes it; asking for the state it is in does nothing. */
  listen(on: boolean): void {
    if (on && !this.#stream) {
      this.#stream = watchTriggerEvents(
        this.host.client(),
        (event) => this.#arrived(event),
        (error) => {
          this.host.failed(error);
          // The token was refused: the watch has stopped for good, so the button offers it again.
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) this.listen(false);
        },
      );
      this.waitButton.textContent = 'Stop waiting';
      this.host.say('Waiting for events…');
    } else if (!on && this.#stream) {
      this.#stream.abort();
      this.#stream = undefined;
      this.waitButton.textContent = 'Wait for an event';
    }
  }

  /** An open stream starts again (with the host's client as it is now); a closed one stays closed. */
  restart(): void {
    if (this.#stream) {
      this.listen(false);
      this.listen(true);
    }
  }

  /** Closes the stream without a word: the element is gone. */
  close(): void {
    this.#stream?.abort();
    this.#stream = undefined;
  }

  #arrived(event: StreamedTriggerEvent): void {
    const values = Object.entries(event.variables)
      .map(([name, value]) => `${name} = ${shown(value)}`)
      .join(', ');
    this.log.prepend(
      h(
        'li',
        null,
        h(
          'strong',
          null,
          `${this.host.titleOf(event.trigger) ?? event.trigger}${event.test ? ' (test)' : ''}`,
        ),
        ' ',
        h('span', { className: 'hint' }, values),
      ),
    );
    this.host.arrived(event);
  }
}
