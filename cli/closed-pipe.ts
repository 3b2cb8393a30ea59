/**
 * Output piped into `head` (or a pager the user quits) is closed before the
 * CLI is done writing. That is the reader's choice, not a failure: end at
 * once with exit 0 instead of an unhandled EPIPE stack, as gh and git do.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit = process.exit): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(0);
    else throw error;
  });
}
