import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `eval [scenario...]`: agents tested on the provider twins (docs/evaluation.md). */
export default function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description(
      'Run an agent on scenario files against the sandbox twins and write JSON, JUnit and HTML reports.',
    )
    .argument('[scenario...]', 'scenario files (YAML or JSON)')
    .option(
      '--agent <file>',
      'the agent: a scripted agent (.yaml/.json) or a module whose default export is one',
    )
    .option('--agent-command <command>', 'the agent as a command speaking JSON lines on stdin and stdout')
    .option('--runs <n>', "runs per scenario, overriding each scenario's own")
    .option('--out <dir>', 'where the reports go', 'eval-report')
    .option('--schema', 'print the JSON Schema of scenario files and exit')
    .action(lazyAction(() => import('../eval/eval-action.js'), 'evalAction'));
}
