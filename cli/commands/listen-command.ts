import type { Command } from 'commander';
import { keepAliveFlags } from '../keep-alive-flags.js';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('./listen-action.js');

/** `listen`: runs the intake; each started event is one JSON line on stdout. */
export default function registerListenCommand(program: Command): void {
  const command = program
    .command('listen')
    .description('Receive trigger deliveries: verify, dedupe and print each started event as one JSON line.')
    .requiredOption('--port <n>', 'port to listen on (0 = any free port)')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--forward-to <url>', 'POST each started event to this URL (kept out of logs and errors)')
    .option('--forward-to-env <name>', 'read the --forward-to URL from this environment variable')
    .option('--exec <command>', 'run this shell command per started event, with the event on stdin')
    .option('--forward-timeout <seconds>', 'time one forward may take to be answered 2xx', '10')
    .option(
      '--exec-timeout <seconds>',
      'time one --exec command may run; then its process group gets SIGTERM, and SIGKILL 5 s later',
      '60',
    )
    .option(
      '--queue',
      'put accepted events on the Redis queue that `toolsteps worker` runs (needs TOOLSTEPS_REDIS_URL)',
    )
    // The defaults are DEFAULT_INTAKE_SERVER_LIMITS (src/triggers/intake/intake-server.ts), which a test holds equal.
    .option(
      '--max-connections <n>',
      'connections held at once; past it a new one takes the place of the oldest idle one, or is closed when every one is answering',
      '128',
    )
    .option('--headers-timeout <seconds>', 'time a request may take to send its headers', '10')
    .option(
      '--request-timeout <seconds>',
      'time a request may take to arrive whole (headers and body); then it is answered 408 and closed',
      '20',
    );
  keepAliveFlags(command, false).action(lazyAction(actions, 'listen'));
}
