import type { HealthChange } from '../../src/runtime/health-change.js';
import type { KeepAliveFlags } from '../keep-alive-flags.js';
import { type KeptAlive, keepAliveSettings, startKeepAliveLoop } from '../keep-alive-loop.js';
import { logLine } from '../serving-log-line.js';

/** The line's part on pending revocations the pass retried, when it retried any. */
function revocationsRetried({ revocations }: KeptAlive): string {
  const tried = revocations.settled + revocations.pending + revocations.gaveUp;
  if (!tried) return '';
  return `; revocations retried: ${revocations.settled} settled, ${revocations.pending} still pending, ${revocations.gaveUp} given up`;
}

/**
 * The keep-alive loop of a serving command (`worker`, `serve`, `listen`),
 * unless switched off: one line per pass it made (`kept-alive`), one per
 * pass that failed (`keep-alive-failed`, tried again a poll later). Each
 * health change goes to `tell`. The settings are read (and refused) before
 * the command starts anything else.
 */
export function servingKeepAlive(flags: KeepAliveFlags, json: boolean, byDefault = true) {
  const settings = keepAliveSettings(flags, byDefault);
  return {
    settings,
    async start(tell: (change: HealthChange) => Promise<void>): Promise<{ stop(): Promise<void> }> {
      if (!settings) return { stop: async () => {} };
      return startKeepAliveLoop(
        settings,
        tell,
        (kept) =>
          logLine(
            json,
            'kept-alive',
            `${kept.connections} connections of ${kept.tenants} tenants: ${kept.refreshed} renewed, ${kept.failed.length} failed, ${kept.told} told` +
              revocationsRetried(kept),
            { ...kept },
          ),
        (error) => {
          const code = (error as { code?: unknown }).code;
          logLine(
            json,
            'keep-alive-failed',
            `the pass failed (${String(code ?? 'internal_error')}); tried again`,
            {
              code: typeof code === 'string' ? code : 'internal_error',
            },
          );
        },
      );
    },
  };
}
