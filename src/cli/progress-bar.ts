/**
 * A one-line progress bar on a terminal's stderr, for bulk runs of more than
 * one batch. On a pipe or file it prints nothing, so logs stay clean.
 */
export function progressBar(stream: NodeJS.WriteStream, width = 30) {
  let drawn = false;
  return {
    update(done: number, total: number): void {
      if (!stream.isTTY || total <= 1) return;
      const filled = Math.round((done / total) * width);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    done(): void {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
