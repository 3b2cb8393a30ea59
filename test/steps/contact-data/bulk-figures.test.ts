import { afterEach, expect, it } from 'vitest';
import { type ContactDataFixture, contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

let fx: ContactDataFixture;
afterEach(async () => {
  await fx.close();
});

it('enriches 2,000 contacts on the smallest plan (40/min, 150/h, 100/day) with zero failed records', async () => {
  // The provider's smallest plan; batches of 25 make 80 requests, so the minute quota forces waiting.
  fx = await contactDataFixture({
    credits: 10_000,
    sandbox: { contactData: { quota: { minute: 40, hourly: 150, daily: 100 } } },
  });
  const people = fx.sandbox.contactData.directory.people;
  const contacts = people.map((person, index) =>
    index % 10 === 9
      ? { email: `nobody${index}@unknown.example` }
      : { email: person.emailAddresses[0]!.email },
  );
  const progress: number[] = [];
  const result = await fx.invoke(
    'contact_data.enrich_contacts',
    { contacts, batch_size: 25 },
    { onProgress: (done) => progress.push(done) },
  );
  const { summary } = result.output;
  const requests = fx.sent();
  const spent = fx.sandbox.contactData.spent(TEST_KEY);

  expect(summary).toMatchObject({ records: 2000, matched: 1800, no_match: 200, failed: 0 });
  expect(result.output.results.map((entry) => entry.input.email)).toEqual(contacts.map((c) => c.email));
  // 80 batches; anything above is a 429 the gate did not foresee (then retried).
  const rejected = requests.length - 80;
  expect(rejected).toBeLessThanOrEqual(3);
  expect(requests.every((request) => request.path === '/person/bulk')).toBe(true);
  expect(result.meta.rateLimitWaits).toBeGreaterThan(0);
  expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 4000 }, charged: spent });
  expect(summary.credits_charged).toBe(spent);
  expect(progress.at(-1)).toBe(80);

  const longestMs = Math.max(0, ...fx.clock.sleeps);
  console.log(
    `bulk figures: records=${summary.records} requests=${requests.length} credits=${summary.credits_charged} waits=${result.meta.rateLimitWaits} (longest ${Math.round(longestMs / 1000)} s) failures=${summary.failed} (matched=${summary.matched}, no_match=${summary.no_match}, 429s=${rejected}, retries=${result.meta.retries})`,
  );
});
