import { describe, expect, it } from 'vitest';
import { upgradeMapping } from '../../src/mapping/mapping-upgrade.js';
import { pathMapProblem, rewritePath } from '../../src/mapping/path-map.js';

// A saved mapping moved across a major through the earlier major's path map: moved paths are
// rewritten (with what is under them, and indexes kept), and a path with no counterpart is listed.

const paths = {
  '$.event.current': '$.event.assignee_id',
  '$.tickets[*].id': '$.items[*].ticket_id',
  '$.legacy': null,
};

describe('rewriting one saved path through a path map', () => {
  it.each([
    ['$.event.current', '$.event.assignee_id'],
    ['$.event.current.name', '$.event.assignee_id.name'],
    ["$['event']['current']", '$.event.assignee_id'],
    ['$.tickets[*].id', '$.items[*].ticket_id'],
    ['$.tickets[0].id', '$.items[0].ticket_id'],
    ['$.tickets[2].subject', '$.tickets[2].subject'],
    ['$.detail.id', '$.detail.id'],
    ["$['odd key']", "$['odd key']"],
  ])('%s reads %s in the new major', (path, to) => {
    expect(rewritePath(path, paths)).toEqual({ to });
  });

  it.each([
    ['$.legacy.flag', 'has no counterpart'],
    ['$.event', 'reads through $.event.current'],
    ['$.event.*', 'reads through $.event.current'],
    ['$.tickets[2]', 'reads through $.tickets[*].id'],
    ['$..current', 'not a plain path'],
    ['$.tickets[?@.id > 1]', 'not a plain path'],
  ])('%s has no counterpart (%s)', (path, reason) => {
    expect(rewritePath(path, paths)).toEqual({ reason: expect.stringContaining(reason) });
  });

  it('keeps every path, plain or not, when nothing moved', () => {
    expect(rewritePath('$..anything', {})).toEqual({ to: '$..anything' });
  });

  it('refuses a path map that is not names and wildcards, or loses a wildcard', () => {
    expect(pathMapProblem({ '$.a[0]': '$.b' })).toContain('names and [*]');
    expect(pathMapProblem({ '$.a[*].b': '$.c' })).toContain('same number of [*]');
    expect(pathMapProblem({ '$..a': null })).toContain('names and [*]');
    expect(pathMapProblem(paths)).toBeUndefined();
  });
});

describe('upgrading a saved mapping over the two majors’ defaults', () => {
  it('rewrites saved paths, keeps the same variables, saves only what the new defaults do not give, and lists the rest', () => {
    const upgraded = upgradeMapping({
      saved: { who: '$.event.current', old_flag: '$.legacy.flag', ticket: '$.detail.id' },
      earlierDefaults: { assignee: '$.event.current', gone_default: '$.legacy', ticket_id: '$.detail.id' },
      latestDefaults: { assignee: '$.event.assignee_id', ticket_id: '$.detail.id' },
      paths,
    });
    expect(upgraded.mapping).toEqual({ who: '$.event.assignee_id', ticket: '$.detail.id' });
    expect(upgraded.moved).toEqual([
      { variable: 'assignee', from: '$.event.current', to: '$.event.assignee_id' },
      { variable: 'who', from: '$.event.current', to: '$.event.assignee_id' },
    ]);
    expect(upgraded.unmatched).toEqual([
      { variable: 'gone_default', path: '$.legacy', reason: expect.stringContaining('no counterpart') },
      { variable: 'old_flag', path: '$.legacy.flag', reason: expect.stringContaining('no counterpart') },
    ]);
  });

  it('keeps a default of the earlier major the new one dropped, rewritten, in the saved mapping', () => {
    const upgraded = upgradeMapping({
      saved: {},
      earlierDefaults: { first_ticket: '$.tickets[0].id' },
      latestDefaults: {},
      paths,
    });
    expect(upgraded.mapping).toEqual({ first_ticket: '$.items[0].ticket_id' });
  });
});
