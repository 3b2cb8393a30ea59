import { describe, expect, it } from 'vitest';
import { ONE_SHOT_COMMANDS, SERVING_COMMANDS } from '../../cli/command-tree.js';
import { buildProgram, COMMAND_MODULES } from '../../cli/program.js';

const names = async (argv?: string[]) =>
  (await buildProgram({ json: false }, argv)).commands.map((c) => c.name());

describe('the command tree declares what the arguments need', () => {
  it('lists in COMMAND_MODULES every command the modules declare, in help order', async () => {
    expect(await names()).toEqual(COMMAND_MODULES.flatMap((entry) => entry.names));
  });

  it('declares only the module of the command named first (after --json)', async () => {
    expect(await names(['run', 'ticketing.get_ticket_info', '--connection', 'x'])).toEqual(['run']);
    expect(await names(['--json', 'describe', 'ticketing.get_ticket_info'])).toEqual([
      'list',
      'search',
      'describe',
    ]);
    expect(await names(['connections', 'list'])).toEqual(['connections']);
  });

  it('declares every command when help, an unknown command or another root option may list them', async () => {
    const all = await names();
    for (const argv of [
      [],
      ['--help'],
      ['--help', 'run'],
      ['help', 'run'],
      ['rnu'],
      ['-V', 'run'],
      ['--', 'run'],
    ]) {
      expect(await names(argv), argv.join(' ')).toEqual(all);
    }
  });

  it('classes every command as one-shot or serving for the bin, which names them without loading the tree', () => {
    const names = COMMAND_MODULES.flatMap((entry) => entry.names).sort();
    expect([...ONE_SHOT_COMMANDS, ...SERVING_COMMANDS].sort()).toEqual(names);
  });
});
