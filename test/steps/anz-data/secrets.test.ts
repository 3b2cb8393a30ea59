import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type AnzDataFixture, anzDataFixture } from './anz-data-fixture.js';

/** Every text an error exposes: its JSON, its inspection, and each message of its cause chain. */
function exposed(error: unknown): string[] {
  const texts = [JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })];
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    texts.push(
      current.message,
      String(current.stack),
      String(JSON.stringify((current as { context?: unknown }).context)),
    );
  }
  return texts;
}

describe('the anz_data API key stays secret', () => {
  let fx: AnzDataFixture;
  closeAfterEach(() => fx);

  it('is not in a 401 error, even when the provider echoes it back', async () => {
    fx = await anzDataFixture();
    const wrongKey = 'anz_sbx_revoked_0123456789abcdef';
    await fx.runtime.store.put({ ...fx.connection, id: 'anz-revoked', secrets: { apiKey: wrongKey } });
    const error = await fx.registry
      .invoke(fx.runtime, 'anz_data.enrich_person', {
        connection: 'anz-revoked',
        input: { profile_slug: 'mia-thompson' },
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      name: 'AuthError',
      code: 'reauthorization_required',
      status: 401,
      fields: [{ path: 'authorization' }],
    });
    // The sandbox did echo it: the redaction is what keeps it out.
    expect(fx.sent()[0]?.headers.authorization).toBe(`Bearer ${wrongKey}`);
    expect((error as Error).message).toContain('[redacted]');
    for (const text of exposed(error)) expect(text).not.toContain(wrongKey);
    expect(JSON.stringify(fx.logger.lines)).not.toContain(wrongKey);
  });

  it('is not in errors whose param entries echo it', async () => {
    fx = await anzDataFixture();
    fx.sandbox.faults.add({
      target: 'anz-data',
      count: 1,
      action: {
        kind: 'status',
        status: 400,
        body: { error: { code: 'invalid_parameter', message: `unknown key ${fx.apiKey}`, param: 'api_key' } },
      },
    });
    fx.sandbox.faults.add({
      target: 'anz-data',
      count: 1,
      action: {
        kind: 'status',
        status: 422,
        body: { error: { code: 'invalid_parameter', message: 'not accepted', param: `key=${fx.apiKey}` } },
      },
    });
    const errors = [
      await fx.invoke('anz_data.search_people', { company: 'Tasman' }).catch((e: unknown) => e),
      await fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' }).catch((e: unknown) => e),
    ];
    expect(errors[0]).toMatchObject({
      code: 'provider_rejected',
      status: 400,
      fields: [{ path: 'api_key' }],
    });
    expect(errors[1]).toMatchObject({ code: 'provider_rejected', status: 422 });
    for (const error of errors) {
      expect(exposed(error).join('\n')).toContain('[redacted]');
      for (const text of exposed(error)) expect(text).not.toContain(fx.apiKey);
    }
    expect(JSON.stringify(fx.logger.lines)).not.toContain(fx.apiKey);
    expect(fx.sandbox.anzData.ledger.charges).toEqual([]);
  });

  it('is not in network errors, credit errors, logs, outputs or variables', async () => {
    fx = await anzDataFixture({ credits: 4 });
    const results = [
      await fx.invoke('anz_data.enrich_person', { email: 'olivia.nguyen@wattle-analytics.example' }),
      await fx.invoke('anz_data.search_people', { company: 'Tasman' }),
      await fx.invoke('anz_data.api_call', { method: 'GET', endpoint: '/credits' }),
    ];
    fx.sandbox.faults.add(resetOnce({ target: 'anz-data' }, 'before'));
    const errors = [
      await fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' }).catch((e: unknown) => e),
      await fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' }).catch((e: unknown) => e),
      await fx.invoke('anz_data.enrich_company', { abn: '11 111 111 111' }).catch((e: unknown) => e),
    ];
    expect(errors.map((error) => (error as { code: string }).code)).toEqual([
      'network_error',
      'credits_exhausted',
      'input_invalid',
    ]);
    for (const error of errors) for (const text of exposed(error)) expect(text).not.toContain(fx.apiKey);
    expect(JSON.stringify(results)).not.toContain(fx.apiKey);
    expect(inspect(results, { depth: 20 })).not.toContain(fx.apiKey);
    expect(fx.logger.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(fx.logger.lines)).not.toContain(fx.apiKey);
  });
});
