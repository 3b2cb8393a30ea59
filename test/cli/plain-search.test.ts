import { describe, expect, it, vi } from 'vitest';
import { printSearchResults } from '../../cli/catalog-lines.js';
import { plainSearch } from '../../cli/plain-search.js';
import { cli } from './cli-harness.js';

/** What main prints for `argv` when it answers a search without the command tree. */
function answeredDirectly(argv: string[]): string {
  const search = plainSearch(argv);
  if (!search) throw new Error(`not a plain search: ${argv.join(' ')}`);
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    printSearchResults(search.query, search.json);
  } finally {
    stdout.mockRestore();
  }
  return out;
}

describe('a search answered without commander', () => {
  it('prints exactly what the command tree prints for each argument list it takes', async () => {
    const plain = [
      ['search', 'zendesk'],
      ['search', 'zendesk', 'create', '--json'],
      ['--json', 'search', 'people'],
      ['search', '--json', 'deploy'],
      ['search', 'no-such-thing'],
    ];
    for (const argv of plain) {
      const tree = await cli(...argv);
      expect(tree.code, argv.join(' ')).toBe(0);
      expect(answeredDirectly(argv), argv.join(' ')).toBe(tree.out);
    }
  });

  it('leaves anything but words and --json to the command tree, with its usage errors and help', () => {
    const others = [
      ['search'],
      ['search', '--json'],
      ['search', '--help'],
      ['search', '-h', 'zendesk'],
      ['search', '--', 'zendesk'],
      ['search', '--jsn', 'zendesk'],
      ['--help', 'search', 'zendesk'],
      ['describe', 'search'],
      ['list'],
    ];
    for (const argv of others) expect(plainSearch(argv), argv.join(' ')).toBeUndefined();
  });
});
