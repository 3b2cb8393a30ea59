import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../../src/sandbox/index.js';
import { type ContactDataFixture, contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

interface BulkOutput {
  results: {
    index: number;
    status: string;
    contact: { id: string } | null;
    error: Record<string, unknown> | null;
  }[];
  summary: {
    matched: number;
    no_match: number;
    failed: number;
    credits_charged: number | null;
    batches_resent: number;
  };
  complete: boolean;
  stopped: { code: string; outcome: string } | null;
  failed_indexes: number[];
}

const SERVER_ERROR = { statusCode: 500, message: 'Internal server error', errors: [] };

describe('contact_data bulk runs: replay safety and quotas', () => {
  let fx: ContactDataFixture;
  afterEach(async () => {
    await fx.close();
  });

  const emails = (count: number) =>
    fx.sandbox.contactData.directory.people
      .slice(0, count)
      .map((person) => ({ email: person.emailAddresses[0]!.email }));

  /** Emails per bulk request that reached the emulator, in order. */
  const batchesSent = () =>
    fx.sent().map((request) => (request.body as { email: string }[]).map((record) => record.email));

  /** Arms a fault once the first `after` batches are done, so it hits a batch after others succeeded. */
  const faultAfter = (after: number, rule: Omit<FaultRule, 'target'>) => (done: number) => {
    if (done === after) fx.sandbox.faults.add({ target: 'contact-data', ...rule });
  };

  it('a batch failing with 500 after others succeeded is re-sent alone; no succeeded record is sent again', async () => {
    fx = await contactDataFixture();
    const contacts = emails(30);
    const result = await fx.invoke<BulkOutput>(
      'contact_data.enrich_contacts',
      { contacts, batch_size: 10, concurrency: 1 },
      {
        onProgress: faultAfter(1, {
          pathIncludes: '/person/bulk',
          count: 1,
          action: { kind: 'status', status: 500, body: SERVER_ERROR },
        }),
      },
    );
    const sent = batchesSent();
    const batch = (n: number) => contacts.slice(n * 10, n * 10 + 10).map((record) => record.email);
    expect(sent).toEqual([batch(0), batch(1), batch(1), batch(2)]);
    expect(result.output.summary).toMatchObject({ matched: 30, failed: 0, batches_resent: 1 });
    expect(result.output.results.map((entry) => entry.index)).toEqual(contacts.map((_, index) => index));
    expect(fx.clock.sleeps).toContain(1000);
    // The 500 was not processed, so nothing was charged twice.
    expect(result.meta.credits?.charged).toBe(fx.sandbox.contactData.spent(TEST_KEY));
  });

  it('a batch that keeps failing is re-sent twice, then its records fail; the others are kept', async () => {
    fx = await contactDataFixture();
    const contacts = emails(30);
    const result = await fx.invoke<BulkOutput>(
      'contact_data.enrich_contacts',
      { contacts, batch_size: 10, concurrency: 1 },
      {
        onProgress: faultAfter(1, {
          pathIncludes: '/person/bulk',
          count: 3,
          action: { kind: 'status', status: 502, body: SERVER_ERROR },
        }),
      },
    );
    expect(fx.sent()).toHaveLength(1 + 3 + 1);
    expect(fx.clock.sleeps.filter((ms) => ms >= 1000)).toEqual([1000, 2000]);
    const { results, summary } = result.output;
    expect(summary).toMatchObject({ matched: 20, failed: 10, batches_resent: 2 });
    expect(result.output.complete).toBe(false);
    expect(result.output.stopped).toBeNull();
    expect(result.output.failed_indexes).toEqual(Array.from({ length: 10 }, (_, index) => index + 10));
    expect(results[10]).toMatchObject({
      status: 'failed',
      contact: null,
      error: { code: 'provider_error', retryable: true, outcome: 'refused' },
    });

    // Running exactly the failed records again completes the list, and sends only them.
    const before = fx.sent().length;
    const again = await fx.invoke<BulkOutput>('contact_data.enrich_contacts', {
      contacts: result.output.failed_indexes.map((index) => contacts[index]!),
    });
    expect(again.output.summary).toMatchObject({ matched: 10, failed: 0 });
    expect(batchesSent().slice(before)).toEqual([contacts.slice(10, 20).map((record) => record.email)]);
  });

  it('a connection reset after the provider acted is not re-sent (it may have been charged)', async () => {
    fx = await contactDataFixture();
    const contacts = emails(20);
    const result = await fx.invoke<BulkOutput>(
      'contact_data.enrich_contacts',
      { contacts, batch_size: 10, concurrency: 1 },
      {
        onProgress: faultAfter(1, {
          pathIncludes: '/person/bulk',
          count: 1,
          action: { kind: 'reset', when: 'after' },
        }),
      },
    );
    expect(fx.sent()).toHaveLength(2);
    expect(result.output.summary).toMatchObject({ matched: 10, failed: 10, batches_resent: 0 });
    expect(result.output.results[15]!.error).toMatchObject({ code: 'network_error', outcome: 'unknown' });
    // The provider charged for the batch we never heard back from; the result only counts what it reported.
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBeGreaterThan(result.output.summary.credits_charged!);
  });

  it('waits for the minute quota before sending instead of collecting 429s', async () => {
    fx = await contactDataFixture({ sandbox: { contactData: { quota: { minute: 2 } } } });
    const result = await fx.invoke<BulkOutput>('contact_data.enrich_contacts', {
      contacts: emails(50),
      batch_size: 10,
      concurrency: 1,
    });
    expect(result.output.summary).toMatchObject({ matched: 50, failed: 0 });
    expect(fx.sent()).toHaveLength(5);
    expect(result.meta.rateLimitWaits).toBe(2);
    expect(fx.clock.sleeps).toEqual([60_000, 60_000]);
    expect(result.meta.retries).toBe(0);
  });

  it('finishes with zero failed records under a tight quota with batches in parallel', async () => {
    fx = await contactDataFixture({ sandbox: { contactData: { quota: { minute: 2 } } } });
    const result = await fx.invoke<BulkOutput>('contact_data.enrich_contacts', {
      contacts: emails(100),
      batch_size: 10,
      concurrency: 3,
    });
    expect(result.output.summary).toMatchObject({ matched: 100, failed: 0 });
    expect(result.meta.rateLimitWaits).toBeGreaterThanOrEqual(4);
  });

  it('the daily quota running out mid-bulk stops the run: later records are failed as not sent', async () => {
    fx = await contactDataFixture({ sandbox: { contactData: { quota: { daily: 2 } } } });
    const result = await fx.invoke<BulkOutput>('contact_data.enrich_contacts', {
      contacts: emails(50),
      batch_size: 10,
      concurrency: 1,
    });
    expect(fx.sent()).toHaveLength(2);
    expect(result.output.summary).toMatchObject({ matched: 20, failed: 30 });
    expect(result.output.stopped).toMatchObject({ code: 'rate_limited', outcome: 'not_sent' });
    expect(result.output.results[20]!.error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      outcome: 'not_sent',
    });
  });

  it('a 429 without Retry-After (quota spent by another client) waits for the window, then succeeds', async () => {
    fx = await contactDataFixture({ sandbox: { contactData: { quota: { minute: 3 } } } });
    for (let used = 0; used < 3; used += 1) fx.sandbox.contactData.quotas.consume(TEST_KEY);
    const started = fx.clock.now();
    const result = await fx.invoke('contact_data.find_company', { domain: 'contoso.example' });
    expect(result.output).toMatchObject({ matched: true });
    expect(fx.sent()).toHaveLength(2);
    expect(result.meta.retries).toBe(1);
    expect(result.meta.rateLimitWaits).toBe(1);
    expect(fx.clock.now() - started).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps input order with several batches in flight', async () => {
    fx = await contactDataFixture();
    const contacts = emails(45).map((record, index) =>
      index % 4 === 0 ? { email: `nobody${index}@unknown.example` } : record,
    );
    const progress: [number, number][] = [];
    const result = await fx.invoke<BulkOutput>(
      'contact_data.enrich_contacts',
      { contacts, batch_size: 4, concurrency: 5 },
      { onProgress: (done, total) => progress.push([done, total]) },
    );
    const people = fx.sandbox.contactData.directory.people;
    expect(result.output.results.map((entry) => entry.contact?.id ?? null)).toEqual(
      contacts.map((_, index) => (index % 4 === 0 ? null : people[index]!.id)),
    );
    expect(result.output.summary).toMatchObject({ no_match: 12, matched: 33, failed: 0 });
    expect(progress[0]).toEqual([0, 12]);
    expect(progress.at(-1)).toEqual([12, 12]);
  });
});
