import { describe, expect, it } from 'vitest';
import { closestName, unknownFieldMessage } from '../../src/values/unknown-field-suggestion.js';

describe('the closest known field name', () => {
  const fields = ['subject', 'description', 'priority', 'type', 'assignee', 'external_id', 'tags'];

  it.each([
    ['priorty', 'priority'],
    ['prioirty', 'priority'],
    ['Priority', 'priority'],
    ['externalId', 'external_id'],
    ['external-id', 'external_id'],
    ['tag', 'tags'],
    ['descripton', 'description'],
    ['asignee', 'assignee'],
  ])('%s -> %s', (typo, meant) => {
    expect(closestName(typo, fields)).toBe(meant);
  });

  it('is nothing when no name is close', () => {
    expect(closestName('zzz', fields)).toBeUndefined();
    expect(closestName('colour', fields)).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });

  it('shapes the message a model acts on', () => {
    expect(unknownFieldMessage('priorty', fields)).toBe('unknown field `priorty`; did you mean `priority`?');
    expect(unknownFieldMessage('zzz', ['ticket_id'])).toBe('unknown field `zzz`; the fields are `ticket_id`');
  });
});
