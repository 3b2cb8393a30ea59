import type { FetchFile } from '../http/fetch-file.js';
import type { HttpClient } from '../http/http-client.js';
import type { PublicConnection } from '../model/connection.js';
import type { Logger } from '../model/logger.js';

/** Records handled so far and in all, beside a step's own progress units. */
export interface ProgressRecords {
  done: number;
  total: number;
}

/**
 * What a step's `run` receives besides its input: everything is already bound
 * to the chosen connection, so a handler does no auth, retries or error
 * classification of its own.
 */
export interface StepContext {
  http: HttpClient;
  connection: PublicConnection;
  signal: AbortSignal | undefined;
  log: Logger;
  /** Credits the provider reported as charged; handlers add to it as responses say. */
  reportCredits(charged: number): void;
  /**
   * Work that outlives one request reports progress here: `done` of `total`
   * steps of the work (bulk batches, pages), and, when it can say, how many
   * records that is, for a progress bar that counts what the user gave.
   */
  progress(done: number, total: number, records?: ProgressRecords): void;
  /** Waits on the runtime's injectable clock (bulk runs back off here), so tests never wait. */
  sleep(ms: number): Promise<void>;
  /** Limits the embedder set for this invocation, e.g. `{ projects: ['web'] }`; empty when none. */
  constraints: Readonly<Record<string, readonly string[]>>;
  /**
   * Reads a file a step was given by URL (an attachment to upload), outside
   * the connection: no credentials, the runtime's deadline and a byte cap,
   * and only URLs (redirects included) the step's `allowed` rule accepts.
   */
  fetchFile: FetchFile;
}
