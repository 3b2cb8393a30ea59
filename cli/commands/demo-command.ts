import type { Command } from 'commander';

export default function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('Start the sandbox in this process and run every integration story against it.')
    .action(async () => {
      // The demo carries the whole sandbox: loaded only when asked for.
      const { runDemo } = await import('../demo/run-demo.js');
      await runDemo();
    });
}
