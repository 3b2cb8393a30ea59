import type { Reply, SandboxRequest } from './sandbox-http.js';
import type { TwinControl } from './twin-control.js';

/** One provider's emulator, mounted under `/<mount>` on the sandbox server. */
export interface Emulator {
  readonly mount: string;
  /** Handles a request whose `path` is below the mount. Undefined means 404. */
  handle(request: SandboxRequest): Promise<Reply | undefined>;
  /** Forgets all state and seeds afresh. */
  reset(): void;
  /**
   * What an evaluation scenario reaches through the control endpoints
   * (`/_sandbox/seed|state|tokens/<mount>`): a starting state to add, the
   * state to check, and the credentials to spoil. Absent on emulators no
   * scenario seeds yet.
   */
  readonly twin?: TwinControl;
}
