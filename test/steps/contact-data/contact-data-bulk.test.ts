import { describe, expect, it } from 'vitest';
import { personCharge } from '../../../sandbox/contact-data/contact-data-emulator.js';
import type { FaultRule } from '../../../sandbox/index.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type ContactDataFixture, contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

const SERVER_ERROR = { statusCode: 500, message: 'Internal server error', errors: [] };
const UNAVAILABLE = { statusCode: 503, message: 'Service unavailable', errors: [] };
/** The provider refusing the next `count` requests before doing any work, asking to wait 3 s. */
const unavailableFor = (count: number) => ({
  count,
  action: { kind: 'status', status: 503, headers: { 'retry-after': '3' }, body: UNAVAILABLE } as const,
});

describe('contact_data bulk runs: replay safety and quotas', () => {
  let fx: ContactDataFixture;
  closeAfterEach(() => fx);

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

  /** Enriches `contacts` ten at a time, one batch after another, with `fault` armed on the bulk path after the first. */
  const enrichInBatchesOfTen = (
    contacts: { email: string }[],
    fault: Omit<FaultRule, 'target' | 'pathIncludes'>,
  ) =>
    fx.invoke(
      'contact_data.enrich_contacts',
      { contacts, batch_size: 10, concurrency: 1 },
      { onProgress: faultAfter(1, { pathIncludes: '/person/bulk', ...fault }) },
    );

  /** The fixture's options for a key whose request quota is `quota`. */
  const withQuota = (quota: Record<string, number>) => ({ sandbox: { contactData: { quota } } });

  /** Enriches the first `count` people of the directory, ten per batch. */
  const enrichTheFirst = (count: number, { concurrency }: { concurrency: number }) =>
    fx.invoke('contact_data.enrich_contacts', { contacts: emails(count), batch_size: 10, concurrency });

  /** Credits the sandbox charges for a batch of matched people. */
  const costOf = (from: number, count: number) =>
    fx.sandbox.contactData.directory.people
      .slice(from, from + count)
      .reduce((sum, person) => sum + personCharge(person), 0);

  it.each([500, 502, 504])(
    'a batch answered %i after the provider charged it is not re-sent: its records are unknown, not retryable, and no credit is counted twice',
    async (status) => {
      fx = await contactDataFixture();
      const contacts = emails(30);
      const result = await enrichInBatchesOfTen(contacts, {
        count: 1,
        // The provider processes (and charges) the batch, then a gateway answers with a 5xx.
        action: { kind: 'status', status, when: 'after', body: SERVER_ERROR },
      });
      const batch = (n: number) => contacts.slice(n * 10, n * 10 + 10).map((record) => record.email);
      // Sent once each: the failed batch is never replayed, by the transport or by the runner.
      expect(batchesSent()).toEqual([batch(0), batch(1), batch(2)]);
      const { results, summary } = result.output;
      expect(summary).toMatchObject({ matched: 20, failed: 10, batches_resent: 0 });
      expect(results[10]).toMatchObject({
        status: 'failed',
        contact: null,
        credits_charged: null,
        error: { code: 'provider_error', retryable: false, outcome: 'unknown' },
      });
      expect(result.output.unknown_indexes).toEqual(Array.from({ length: 10 }, (_, index) => index + 10));
      expect(result.output.retry_indexes).toEqual([]);
      expect(result.output.complete).toBe(false);
      expect(result.output.stopped).toBeNull();
      // The provider charged each batch once; we count only what it reported, never the unknown batch.
      const reported = costOf(0, 10) + costOf(20, 10);
      expect(summary.credits_charged).toBe(reported);
      expect(result.meta.credits?.charged).toBe(reported);
      expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(reported + costOf(10, 10));
    },
  );

  it('a batch the provider refused without acting (503 with Retry-After) is re-sent alone; no succeeded record is sent again', async () => {
    fx = await contactDataFixture();
    const contacts = emails(30);
    const result = await enrichInBatchesOfTen(contacts, {
      // The transport's four attempts; the runner's re-send then gets through.
      ...unavailableFor(4),
    });
    const batch = (n: number) => contacts.slice(n * 10, n * 10 + 10).map((record) => record.email);
    expect(batchesSent()).toEqual([batch(0), ...Array(5).fill(batch(1)), batch(2)]);
    expect(result.output.summary).toMatchObject({ matched: 30, failed: 0, batches_resent: 1 });
    expect(result.output.results.map((entry) => entry.index)).toEqual(contacts.map((_, index) => index));
    expect(fx.clock.sleeps).toEqual([3000, 3000, 3000, 1000]);
    // A 503 is refused before any work, so nothing was charged twice.
    expect(result.meta.credits?.charged).toBe(fx.sandbox.contactData.spent(TEST_KEY));
    expect(result.meta.credits?.charged).toBe(costOf(0, 30));
  });

  it('a batch that keeps being refused (503) is re-sent twice, then its records fail as safe to retry; the others are kept', async () => {
    fx = await contactDataFixture();
    const contacts = emails(30);
    const result = await enrichInBatchesOfTen(contacts, {
      ...unavailableFor(12),
    });
    // The first send and two re-sends, each with the transport's four attempts.
    expect(fx.sent()).toHaveLength(1 + 3 * 4 + 1);
    expect(fx.clock.sleeps.filter((ms) => ms !== 3000)).toEqual([1000, 2000]);
    const { results, summary } = result.output;
    expect(summary).toMatchObject({ matched: 20, failed: 10, batches_resent: 2 });
    expect(result.output.complete).toBe(false);
    expect(result.output.stopped).toBeNull();
    expect(result.output.retry_indexes).toEqual(Array.from({ length: 10 }, (_, index) => index + 10));
    expect(result.output.unknown_indexes).toEqual([]);
    expect(results[10]).toMatchObject({
      status: 'failed',
      contact: null,
      credits_charged: 0,
      error: { code: 'provider_error', retryable: true, outcome: 'refused' },
    });

    // Running exactly the records to retry completes the list, and sends only them.
    const before = fx.sent().length;
    const again = await fx.invoke('contact_data.enrich_contacts', {
      contacts: result.output.retry_indexes.map((index) => contacts[index]!),
    });
    expect(again.output.summary).toMatchObject({ matched: 10, failed: 0 });
    expect(batchesSent().slice(before)).toEqual([contacts.slice(10, 20).map((record) => record.email)]);
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(costOf(0, 30));
  });

  it('a batch whose connection never opened is re-sent; nothing is charged twice', async () => {
    let refusals = 0;
    const refusingFetch: typeof fetch = async (input, init) => {
      // The second batch meets a refused connection on all four transport attempts.
      if (String(input).endsWith('/person/bulk') && fx.sent().length === 1 && refusals < 4) {
        refusals += 1;
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      }
      return fetch(input, init);
    };
    fx = await contactDataFixture({ runtime: { transport: { fetch: refusingFetch } } });
    const contacts = emails(20);
    const result = await fx.invoke('contact_data.enrich_contacts', {
      contacts,
      batch_size: 10,
      concurrency: 1,
    });
    expect(refusals).toBe(4);
    expect(fx.sent()).toHaveLength(2);
    expect(result.output.summary).toMatchObject({ matched: 20, failed: 0, batches_resent: 1 });
    expect(result.meta.credits?.charged).toBe(fx.sandbox.contactData.spent(TEST_KEY));
  });

  it('a record missing from the answer may have been charged: unknown, not retryable, charge null', async () => {
    const dropLast: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith('/person/bulk') || !response.ok) return response;
      const body = (await response.json()) as { results: unknown[] };
      return new Response(JSON.stringify({ ...body, results: body.results.slice(0, -1) }), {
        status: response.status,
        headers: response.headers,
      });
    };
    fx = await contactDataFixture({ runtime: { transport: { fetch: dropLast } } });
    const result = await fx.invoke('contact_data.enrich_contacts', { contacts: emails(5) });
    expect(result.output.results[4]).toMatchObject({
      status: 'failed',
      credits_charged: null,
      error: { code: 'missing_in_answer', retryable: false, outcome: 'unknown' },
    });
    expect(result.output.unknown_indexes).toEqual([4]);
    expect(result.output.retry_indexes).toEqual([]);
    expect(result.output.summary.credits_charged).toBe(costOf(0, 4));
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(costOf(0, 5));
  });

  it('a connection reset after the provider acted is not re-sent (it may have been charged)', async () => {
    fx = await contactDataFixture();
    const contacts = emails(20);
    const result = await enrichInBatchesOfTen(contacts, {
      count: 1,
      action: { kind: 'reset', when: 'after' },
    });
    expect(fx.sent()).toHaveLength(2);
    expect(result.output.summary).toMatchObject({ matched: 10, failed: 10, batches_resent: 0 });
    expect(result.output.results[15]).toMatchObject({
      credits_charged: null,
      error: { code: 'network_error', retryable: false, outcome: 'unknown' },
    });
    expect(result.output.unknown_indexes).toEqual(Array.from({ length: 10 }, (_, index) => index + 10));
    expect(result.output.retry_indexes).toEqual([]);
    // The provider charged for the batch we never heard back from; the result only counts what it reported.
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBeGreaterThan(result.output.summary.credits_charged!);
  });

  it('waits for the minute quota before sending instead of collecting 429s', async () => {
    fx = await contactDataFixture(withQuota({ minute: 2 }));
    const result = await enrichTheFirst(50, { concurrency: 1 });
    expect(result.output.summary).toMatchObject({ matched: 50, failed: 0 });
    expect(fx.sent()).toHaveLength(5);
    expect(result.meta.rateLimitWaits).toBe(2);
    expect(fx.clock.sleeps).toEqual([60_000, 60_000]);
    expect(result.meta.retries).toBe(0);
  });

  it('finishes with zero failed records under a tight quota with batches in parallel', async () => {
    fx = await contactDataFixture(withQuota({ minute: 2 }));
    const result = await enrichTheFirst(100, { concurrency: 3 });
    expect(result.output.summary).toMatchObject({ matched: 100, failed: 0 });
    expect(result.meta.rateLimitWaits).toBeGreaterThanOrEqual(4);
  });

  it('the daily quota running out mid-bulk stops the run: later records are failed as not sent', async () => {
    fx = await contactDataFixture(withQuota({ daily: 2 }));
    const result = await enrichTheFirst(50, { concurrency: 1 });
    expect(fx.sent()).toHaveLength(2);
    expect(result.output.summary).toMatchObject({ matched: 20, failed: 30 });
    expect(result.output.stopped).toMatchObject({ code: 'rate_limited', outcome: 'not_sent' });
    expect(result.output.results[20]!.error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      outcome: 'not_sent',
    });
    expect(result.output.retry_indexes).toEqual(Array.from({ length: 30 }, (_, index) => index + 20));
    expect(result.output.unknown_indexes).toEqual([]);
  });

  it('a 429 without Retry-After (quota spent by another client) waits for the window, then succeeds', async () => {
    fx = await contactDataFixture(withQuota({ minute: 3 }));
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
    const result = await fx.invoke(
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
