export interface ProgressBarOptions {
  /** Whether the stream is a terminal; the stream's own `isTTY` unless a test says otherwise. */
  isTTY?: boolean;
  /** Milliseconds now, for the ETA; injectable so a test needs no waiting. */
  now?: () => number;
  width?: number;
  /** What is counted, e.g. "records". */
  unit?: string;
}

/** `m:ss` (or `h:mm:ss`) for an ETA. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * A one-line progress bar with the count and an ETA, redrawn in place on a
 * terminal's stderr for long runs (bulk enrichment, paging). On a pipe or a
 * file it draws nothing, so logs and piped output stay clean.
 */
export function progressBar(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  options: ProgressBarOptions = {},
) {
  const { width = 30, unit = 'records', now = Date.now } = options;
  const tty = options.isTTY ?? Boolean(stream.isTTY);
  let started: { at: number; done: number } | undefined;
  let drawn = false;
  return {
    update(done: number, total: number, counted = unit): void {
      if (!tty || total <= 0) return;
      // The rate is measured from the first report, so time spent before work began does not count.
      if (!started) started = { at: now(), done };
      const ratio = Math.min(1, done / total);
      const filled = Math.round(ratio * width);
      const progressed = done - started.done;
      const eta =
        progressed > 0 && done < total
          ? `  ETA ${formatDuration(((now() - started.at) / progressed) * (total - done))}`
          : '';
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${counted} ${Math.floor(ratio * 100)}%${eta}\x1b[K`,
      );
      drawn = true;
    },
    done(): void {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
