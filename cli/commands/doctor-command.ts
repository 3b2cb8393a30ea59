import type { Command } from 'commander';
import { EXIT_FAILURE, printJson } from '../output.js';

const MARKS = { ok: 'ok  ', info: 'info', warn: 'WARN', fail: 'FAIL' } as const;

/** `doctor`: what this machine and store look like to toolsteps, and what to fix. Exit 1 when a check fails. */
export default function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check Node, the store and its permissions, connections, proxy, coordination and plan.')
    .action(async (_options: unknown, command: Command) => {
      const { runDoctor } = await import('../doctor/run-doctor.js');
      const checks = await runDoctor();
      const ok = checks.every((check) => check.status !== 'fail');
      if (command.optsWithGlobals().json) printJson({ ok, checks });
      else {
        for (const check of checks) {
          process.stdout.write(`${MARKS[check.status]}  ${check.name.padEnd(13)} ${check.summary}\n`);
          for (const detail of check.details) process.stdout.write(`${' '.repeat(21)}${detail}\n`);
        }
      }
      if (!ok) process.exitCode = EXIT_FAILURE;
    });
}
