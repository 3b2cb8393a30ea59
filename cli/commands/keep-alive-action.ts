import type { Command } from 'commander';
import { keepAlivePass } from '../../src/runtime/keep-alive-pass.js';
import { cliContext } from '../cli-context.js';
import { keepAliveWindowMs } from '../keep-alive-window.js';
import { EXIT_FAILURE, printJson } from '../output.js';

/**
 * `connections keep-alive`: one keep-alive pass, for cron. Renews what is
 * due, checks what has no refresh token, prints each connection's health;
 * exits 1 when a connection needs reconnecting or a renewal failed, so cron
 * mails someone. Changes into needs_reconnect or expiring are printed once.
 */
export async function keepAliveOnce(_options: unknown, command: Command): Promise<void> {
  const { registry, runtime } = await cliContext();
  const report = await keepAlivePass(runtime, {
    integration: (id) => registry.integration(id),
    windowMs: keepAliveWindowMs(),
  });
  const troubled =
    report.failed.length > 0 || Object.values(report.health).some((state) => state === 'needs_reconnect');
  if (command.optsWithGlobals().json) printJson(report);
  else {
    for (const [id, state] of Object.entries(report.health)) {
      const did = report.refreshed.includes(id)
        ? ' (renewed)'
        : report.checked.includes(id)
          ? ' (checked)'
          : '';
      process.stdout.write(`${id}: ${state}${did}\n`);
    }
    for (const failure of report.failed) process.stderr.write(`${failure.id}: ${failure.code}\n`);
    for (const change of report.told) process.stdout.write(`${JSON.stringify(change)}\n`);
  }
  if (troubled) process.exitCode = EXIT_FAILURE;
}
