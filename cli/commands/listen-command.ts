import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

const actions = () => import('./listen-action.js');

/** `listen`: runs the intake; each started event is one JSON line on stdout. */
export default function registerListenCommand(program: Command): void {
  program
    .command('listen')
    .description('Receive trigger deliveries: verify, dedupe and print each started event as one JSON line.')
    .requiredOption('--port <n>', 'port to listen on (0 = any free port)')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--forward-to <url>', 'POST each started event to this URL')
    .option('--exec <command>', 'run this shell command per started event, with the event on stdin')
    .option(
      '--queue',
      'put accepted events on the Redis queue that `toolsteps worker` runs (needs TOOLSTEPS_REDIS_URL)',
    )
    .action(lazyAction(actions, 'listen'));
}
