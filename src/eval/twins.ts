import type { Connection } from '../model/connection.js';

/**
 * Running provider twins, as the harness needs them: where their control
 * endpoints are, and fresh connections to them. `sandboxTwins` of
 * `toolsteps/sandbox` starts the built-in ones in-process; anything that
 * answers the same control endpoints will do.
 */
export interface Twins {
  /** The sandbox's base URL; its control endpoints are under `/_sandbox`. */
  readonly url: string;
  /** New connections for these integrations (after a reset, the old tokens are gone). */
  connect(integrations: readonly string[]): Promise<Connection[]>;
  close(): Promise<void>;
}
