import type { Command } from 'commander';
import { runDemo } from '../demo/run-demo.js';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Start the sandbox in this process and run every integration story against it.')
    .action(async () => {
      await runDemo();
    });
}
