import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkField } from '../../ui/forms/field-value.js';
import { emptyChoice } from '../../ui/forms/form-field.js';
import { fieldsOf, sampleOf } from '../../ui/forms/schema-fields.js';
import { jsonPathOf, variableNameFor } from '../../ui/views/json-path.js';

/**
 * How the kit reads a step's JSON Schema (the manifest's, as the builder API
 * sends it) into form fields, checks what a person typed against the same
 * schema, and writes JSONPaths the server's json-p3 reads. Pure functions:
 * run in Node; the elements that use them run in Chromium (the other tests here).
 */
const manifest = JSON.parse(readFileSync('manifest.json', 'utf8')) as {
  steps: { id: string; input: Record<string, unknown>; output: Record<string, unknown> }[];
};
const step = (id: string) => manifest.steps.find((entry) => entry.id === id)!;

describe('the step form reads the input schema', () => {
  const fields = fieldsOf(step('ticketing.create_ticket').input);
  const field = (name: string) => fields.find((entry) => entry.name === name)!;

  it('lists required fields first, titled from their names, each with its kind', () => {
    expect(fields.slice(0, 2).map((f) => [f.name, f.title, f.required])).toEqual([
      ['subject', 'Subject', true],
      ['description', 'Description', true],
    ]);
    expect(field('priority')).toMatchObject({ kind: 'enum', choices: ['low', 'normal', 'high', 'urgent'] });
    expect(field('external_id')).toMatchObject({ title: 'External id', kind: 'text', required: false });
    expect(field('tags').kind).toBe('list');
    expect(field('description').kind).toBe('long-text');
    expect(field('custom_fields').kind).toBe('json');
  });

  it('checks a value with the same schema: required, enum, length, an id that is a number or an email', () => {
    expect(checkField(field('subject'), '')).toEqual({ problem: 'Subject is required.' });
    expect(checkField(field('priority'), 'soon')).toEqual({ problem: 'Choose one of the listed values.' });
    expect(checkField(field('priority'), 'high')).toEqual({ value: 'high' });
    expect(checkField(field('assignee'), '42')).toEqual({ value: 42 });
    expect(checkField(field('assignee'), 'sam@example.com')).toEqual({ value: 'sam@example.com' });
    expect(checkField(field('assignee'), 'sam')?.problem).toBeTruthy();
    expect(checkField(field('tags'), 'vip, urgent')).toEqual({ value: ['vip', 'urgent'] });
    expect(checkField(field('tags'), 'two words')?.problem).toMatch(/two words/);
    expect(checkField(field('external_id'), '')).toBeUndefined();
  });

  it('passes a {{variable}} placeholder as written: the test run fills it', () => {
    expect(checkField(field('assignee'), '{{requester}}')).toEqual({ value: '{{requester}}' });
    expect(checkField(field('subject'), 'Re: {{subject}}')).toEqual({ value: 'Re: {{subject}}' });
  });

  it('reads per-account custom fields: number, checkbox, date, dropdown, multiselect', () => {
    const custom = fieldsOf({
      type: 'object',
      properties: {
        seats: { type: 'integer', minimum: 1, title: 'Seats' },
        vip: { type: 'boolean' },
        renewal: { type: 'string', format: 'date' },
        plan: { type: 'string', enum: ['basic', 'pro'] },
        regions: { type: 'array', items: { type: 'string', enum: ['au', 'nz'] } },
        assignee: { type: 'integer', 'x-toolsteps-options': { dependsOn: ['group'] } },
      },
      required: ['seats'],
    });
    expect(custom.map((f) => [f.name, f.kind])).toEqual([
      ['seats', 'integer'],
      ['vip', 'boolean'],
      ['renewal', 'text'],
      ['plan', 'enum'],
      ['regions', 'multi'],
      ['assignee', 'integer'],
    ]);
    expect(custom.find((f) => f.name === 'assignee')?.options).toEqual({
      dependsOn: ['group'],
      searchable: false,
      fixed: false,
    });
    const seats = custom[0]!;
    expect(checkField(seats, '0')).toEqual({ problem: 'Must be at least 1.' });
    expect(checkField(seats, '1.5')).toEqual({ problem: 'Must be a whole number.' });
    expect(checkField(custom[2]!, '26/11/2026')).toEqual({ problem: 'Must be a date (YYYY-MM-DD).' });
    expect(checkField(custom[4]!, ['au'])).toEqual({ value: ['au'] });
  });
});

describe('lists, untouched checkboxes, defaults and the provider’s words', () => {
  const fields = fieldsOf(step('ticketing.create_ticket').input);
  const field = (name: string) => fields.find((entry) => entry.name === name)!;

  it('sends a list as a list, each item as its schema takes it', () => {
    expect(checkField(field('tags'), ['vip', 'printer'])).toEqual({ value: ['vip', 'printer'] });
    expect(checkField(field('followers'), ['7', '9'])).toEqual({ value: [7, 9] });
    expect(checkField(field('followers'), ['7', '{{requester}}'])).toEqual({ value: [7, '{{requester}}'] });
    expect(checkField(field('followers'), ['sam'])?.problem).toMatch(/sam/);
    expect(checkField(field('followers'), [])).toBeUndefined();
  });

  it('leaves out a checkbox nobody touched; sends one that was', () => {
    const [vip] = fieldsOf({ type: 'object', properties: { vip: { type: 'boolean' } } });
    expect(checkField(vip!, '')).toBeUndefined();
    expect(checkField(vip!, false)).toEqual({ value: false });
    expect(checkField(vip!, true)).toEqual({ value: true });
  });

  it('labels choices in the provider’s case and names the default a dropdown leaves in place', () => {
    const manifestTriggers = (
      JSON.parse(readFileSync('manifest.json', 'utf8')) as { triggers: { id: string; setup: object }[] }
    ).triggers;
    const setup = manifestTriggers.find((trigger) => trigger.id === 'ticketing.ticket_status_changed')!.setup;
    const [statuses, delivery] = fieldsOf(setup as Record<string, unknown>);
    expect(statuses!.kind).toBe('multi');
    expect(statuses!.choices.map((value) => statuses!.labelOf(value))).toEqual([
      'NEW',
      'OPEN',
      'PENDING',
      'HOLD',
      'SOLVED',
      'CLOSED',
    ]);
    expect(checkField(statuses!, ['solved'])).toEqual({ value: ['solved'] });
    expect(delivery!.defaultValue).toBe('event_webhook');
    expect(emptyChoice(delivery!)).toBe('Default (Every change)');
    expect(emptyChoice(field('priority'))).toBe('Not set');
  });
});

describe('the variable mapper', () => {
  it('writes RFC 9535 paths, quoting names that are not identifiers', () => {
    expect(jsonPathOf(['ticket', 'id'])).toBe('$.ticket.id');
    expect(jsonPathOf(['comments', 0, 'body'])).toBe('$.comments[0].body');
    expect(jsonPathOf(['odd key', "it's"])).toBe("$['odd key']['it\\'s']");
    expect(variableNameFor(['ticket', 'id'])).toBe('ticket_id');
    expect(variableNameFor(['detail', 'requester_id'])).toBe('detail_requester_id');
  });

  it('makes a first sample from the output schema, so values can be chosen before a test', () => {
    const sample = sampleOf(step('ticketing.create_ticket').output) as { ticket: Record<string, unknown> };
    expect(sample.ticket).toMatchObject({ id: 0, status: 'new' });
  });
});
