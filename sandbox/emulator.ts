import type { Reply, SandboxRequest } from './sandbox-http.js';

/** One provider's emulator, mounted under `/<mount>` on the sandbox server. */
export interface Emulator {
  readonly mount: string;
  /** Handles a request whose `path` is below the mount. Undefined means 404. */
  handle(request: SandboxRequest): Promise<Reply | undefined>;
  /** Forgets all state and seeds afresh. */
  reset(): void;
}
