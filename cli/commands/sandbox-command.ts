import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { loadSandbox } from '../library-sandbox.js';
import { integerOption } from '../option-values.js';

/** A port that is taken or not ours to use is bad input, with the way out; anything else stays as it was. */
function portRefusal(error: NodeJS.ErrnoException, port: number): unknown {
  if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') return error;
  const why = error.code === 'EADDRINUSE' ? 'is already in use' : 'needs privileges this user lacks';
  return new InputError(
    `Port ${port} on 127.0.0.1 ${why}: another sandbox may be running. Choose another with --port <n>, or --port 0 for any free port (the sandbox prints its URL).`,
    [{ path: 'port', message: error.code === 'EADDRINUSE' ? 'in use' : 'not allowed' }],
    { cause: error },
  );
}

/** `sandbox [--port N] [--manual-clock]`: serve every emulator on loopback until interrupted. */
export default function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('Start the local emulators of every provider on 127.0.0.1.')
    .option('--port <n>', 'port to listen on', '4010')
    .option(
      '--assume <integration.name=value>',
      'change one of the sandbox assumptions (docs/sandbox.md, "Sandbox assumptions"), e.g. governance.second_invite=replace; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--manual-clock',
      'run on a clock that POST /_sandbox/clock moves forward ({"advance_ms": n}), to reach a token\'s end by hand',
    )
    .action(async (options: { port: string; assume: string[]; manualClock?: boolean }) => {
      const port = integerOption(options.port, '--port', { min: 0, max: 65535 });
      // Every emulator is loaded only for this command, not for each start of the CLI.
      const {
        AdvancingClock,
        ANZ_DATA_SANDBOX_KEY,
        CONTACT_DATA_SANDBOX_KEY,
        CONTROL_HEADER,
        GOVERNANCE_SANDBOX,
        assumptionsFromFlags,
        startSandbox,
      } = await loadSandbox();
      // A wrong name or value is refused before the port is opened.
      const assume = assumptionsFromFlags(options.assume);
      const clock = options.manualClock ? { clock: new AdvancingClock() } : {};
      const sandbox = await startSandbox({ port, assume, ...clock }).catch((error: NodeJS.ErrnoException) => {
        throw portRefusal(error, port);
      });
      // Nobody reads the request log of a sandbox in its own process, and its
      // entries hold the credentials every request carried: keep none.
      sandbox.server.requestLogLimit = 0;
      process.stdout.write(`toolsteps sandbox listening at ${sandbox.url}\n`);
      if (options.assume.length) process.stdout.write(`  assuming: ${options.assume.join(', ')}\n`);
      if (options.manualClock) {
        process.stdout.write(
          `  clock: manual; move it on with POST ${sandbox.url}/_sandbox/clock {"advance_ms": 86400000} and the header "${CONTROL_HEADER}: 1"\n`,
        );
      }
      process.stdout.write(
        `  ticketing: ${sandbox.baseUrl('ticketing', '<subdomain>')}  (OAuth client id: toolsteps-cli)\n`,
      );
      process.stdout.write(
        `  anz_data:  ${sandbox.baseUrl('anz-data')}  (API key: ${ANZ_DATA_SANDBOX_KEY})\n`,
      );
      process.stdout.write(
        `  contact_data: ${sandbox.baseUrl('contact-data')}  (API key: ${CONTACT_DATA_SANDBOX_KEY})\n`,
      );
      process.stdout.write(
        `  governance: ${sandbox.baseUrl('governance', GOVERNANCE_SANDBOX.region)}  (organization ${GOVERNANCE_SANDBOX.organizationId}, project ${GOVERNANCE_SANDBOX.projectId}, admin API key ${GOVERNANCE_SANDBOX.adminKey})\n`,
      );
      process.stdout.write(
        `  deployments: ${sandbox.baseUrl('deployments')}  (OAuth client id: toolsteps-cli; team id team_acme)\n`,
      );
      process.stdout.write(
        `  control:   ${sandbox.url}/_sandbox/health (GET); POST /_sandbox/reset, /faults, /webhook-faults, /webhooks/settle with JSON and the header "${CONTROL_HEADER}: 1"\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sandbox.close();
    });
}
