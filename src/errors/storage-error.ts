import type { ErrorInit } from './error-fields.js';
import { ToolstepsError } from './toolsteps-error.js';

/**
 * A store on this machine could not be written or read (a full disk, an I/O
 * error) and the operation stopped where nothing is lost: retryable once the
 * store is back. `errno` is the system's code (ENOSPC...), when there was one.
 */
export class StorageError extends ToolstepsError {
  override readonly name = 'StorageError' as const;
  readonly errno: string | undefined;
  constructor(message: string, init: ErrorInit & { errno?: string | undefined } = {}) {
    const { errno, ...rest } = init;
    super('storage_unavailable', message, { retryable: true, ...rest });
    this.errno = errno;
  }
}
