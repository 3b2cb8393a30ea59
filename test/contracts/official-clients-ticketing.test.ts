import zendesk from 'node-zendesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';

/**
 * The provider's own Node client (node-zendesk), unmodified, against the
 * sandbox: every operation the sandbox emulates, and paging past 100 records
 * by following the links the sandbox answers with.
 */
let sandbox: Sandbox;
let client: ReturnType<typeof zendesk.createClient>;

interface Record_ {
  id: number;
  [key: string]: unknown;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  const tokens = sandbox.ticketing.issueTokens('acme');
  client = zendesk.createClient({
    token: tokens.access_token,
    oauth: true,
    endpointUri: `${sandbox.baseUrl('ticketing', 'acme')}/api/v2`,
    throwOriginalException: true,
  });
  const account = sandbox.ticketing.account('acme');
  for (let index = 0; index < 110; index += 1) {
    account.addUser({ name: `Customer ${index}`, email: `customer${index}@example.com`, role: 'end-user' });
  }
});
afterAll(() => sandbox.close());

describe('node-zendesk against the ticketing sandbox', () => {
  it('creates, shows, updates and deletes a ticket', async () => {
    const created = (await client.tickets.create({
      ticket: { subject: 'Printer on fire', comment: { body: 'Smoke everywhere.' }, priority: 'urgent' },
    })) as { result: Record_ };
    expect(created.result).toMatchObject({ subject: 'Printer on fire', priority: 'urgent', status: 'new' });
    const id = created.result.id;
    const shown = (await client.tickets.show(id)) as { result: Record_ };
    expect(shown.result).toMatchObject({ id, description: 'Smoke everywhere.' });
    const updated = (await client.tickets.update(id, { ticket: { status: 'open', tags: ['fire'] } })) as {
      result: Record_;
    };
    expect(updated.result).toMatchObject({ id, status: 'open', tags: ['fire'] });
    await client.tickets.delete(id);
    await expect(client.tickets.show(id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('lists more than 100 tickets, following the next links the sandbox gives', async () => {
    for (let index = 0; index < 105; index += 1) {
      await client.tickets.create({ ticket: { subject: `Bulk ${index}`, comment: { body: 'Paging.' } } });
    }
    const tickets = (await client.tickets.list()) as unknown as Record_[];
    const ids = tickets.map((ticket) => ticket.id);
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
    const pages = sandbox.server.requestLog.filter((entry) => /\/tickets\.json\?/.test(entry.path));
    expect(pages.length).toBeGreaterThanOrEqual(2);
  });

  it('searches past 100 results with the offset links the sandbox gives', async () => {
    const results = (await client.search.queryAll('type:ticket Bulk')) as unknown as Record_[];
    expect(results.length).toBe(105);
    const pages = sandbox.server.requestLog.filter((entry) => entry.path.includes('/search.json?'));
    expect(pages.at(-1)?.path).toContain('page=2');
  });

  it('lists more than 100 users and shows one', async () => {
    const users = (await client.users.list()) as unknown as Record_[];
    expect(users.length).toBe(113);
    const shown = (await client.users.show(1)) as { result: Record_ };
    expect(shown.result).toMatchObject({ id: 1, role: 'admin' });
  });

  it('lists organizations and shows one', async () => {
    const organizations = (await client.organizations.list()) as unknown as Record_[];
    expect(organizations.map((organization) => organization.id)).toEqual([1]);
    const shown = (await client.organizations.show(1)) as { result: Record_ };
    expect(shown.result).toMatchObject({ id: 1, name: 'Acme Pty Ltd' });
  });
});
