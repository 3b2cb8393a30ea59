import { describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/catalog/manifest.js';
import { InputError } from '../../src/errors/index.js';
import { createRegistry } from '../../steps/index.js';
import { addConnection, cli, jsonError, useCliHome } from '../cli/cli-harness.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import { ticketingFixture } from '../support/ticketing-fixture.js';

type Schema = { properties?: object; additionalProperties?: unknown; oneOf?: Schema[]; anyOf?: Schema[] };

/** The InputError a run was refused with. */
async function refusal(run: Promise<unknown>): Promise<InputError> {
  const caught = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(InputError);
  return caught as InputError;
}

/** Every object in the schema that lists properties, with its branches. */
function objectsOf(schema: Schema): Schema[] {
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap(objectsOf);
  return schema.properties ? [schema, ...branches] : branches;
}

describe('step inputs refuse fields they do not know', () => {
  it('on every step of the catalogue, as its JSON Schema tells a model (additionalProperties: false)', () => {
    for (const step of buildManifest(createRegistry()).steps) {
      const objects = objectsOf(step.input as Schema);
      expect(objects.length, step.id).toBeGreaterThan(0);
      for (const object of objects) expect(object.additionalProperties, step.id).toBe(false);
    }
  });

  describe('through the library', () => {
    const fx = useFixture(ticketingFixture);
    const sent = () => fx.requests('ticketing');

    it('names a misspelt field and the field it probably meant, and sends nothing', async () => {
      const error = await refusal(
        fx.invokeUnchecked('ticketing.create_ticket', { subject: 's', description: 'd', priorty: 'high' }),
      );
      expect(error.fields).toEqual([
        { path: 'priorty', message: 'unknown field `priorty`; did you mean `priority`?' },
      ]);
      expect(error.message).toBe(
        'Invalid input for ticketing.create_ticket: unknown field `priorty`; did you mean `priority`?.',
      );
      expect(sent()).toEqual([]);
    });

    it('lists the fields when nothing is close, and names nested fields by their path', async () => {
      const far = await refusal(fx.invokeUnchecked('ticketing.delete_ticket', { ticket_id: 1, zzz: true }));
      expect(far.fields).toEqual([
        { path: 'zzz', message: 'unknown field `zzz`; the fields are `ticket_id`' },
      ]);
      const api = await refusal(
        fx.invokeUnchecked('ticketing.api_call', {
          method: 'GET',
          endpoint: '/api/v2/users.json',
          header: {},
        }),
      );
      expect(api.fields[0]?.message).toMatch(/^unknown field `header`/);
      expect(sent()).toEqual([]);
    });

    it('says a missing field is required and a value outside a list must be one of the list', async () => {
      const missing = await refusal(fx.invokeUnchecked('ticketing.create_ticket', { description: 'd' }));
      expect(missing.fields).toEqual([{ path: 'subject', message: '`subject` is required' }]);
      const outside = await refusal(
        fx.invokeUnchecked('ticketing.create_ticket', { subject: 's', description: 'd', priority: 'hgh' }),
      );
      expect(outside.fields).toEqual([
        { path: 'priority', message: '`priority` must be one of low, normal, high, urgent' },
      ]);
      expect(sent()).toEqual([]);
    });
  });

  describe('through the CLI', () => {
    useCliHome('toolsteps-unknown-field-', { env: ['TS_UNKNOWN_FIELD_TOKEN'] });
    const fx = useFixture(ticketingFixture);

    it('run exits 2 with the suggestion and sends nothing', async () => {
      const added = await addConnection(
        'ticketing',
        'acme',
        { env: 'TS_UNKNOWN_FIELD_TOKEN', value: fx.connection.secrets.accessToken! },
        '--subdomain',
        'acme',
        '--base-url',
        fx.sandbox.baseUrl('ticketing', 'acme'),
      );
      expect(added.code).toBe(0);
      const input = '{"subject":"s","description":"d","priorty":"high"}';
      const human = await cli('run', 'ticketing.create_ticket', '--connection', 'acme', '--input', input);
      expect(human.code).toBe(2);
      expect(human.err).toContain('unknown field `priorty`; did you mean `priority`?');
      const json = await cli(
        'run',
        'ticketing.create_ticket',
        '--connection',
        'acme',
        '--input',
        input,
        '--json',
      );
      expect(json.code).toBe(2);
      expect(jsonError(json)).toMatchObject({
        code: 'input_invalid',
        fields: [{ path: 'priorty', message: 'unknown field `priorty`; did you mean `priority`?' }],
      });
      expect(fx.sandbox.server.requestLog.filter((entry) => entry.mount === 'ticketing')).toEqual([]);
    });
  });
});
