import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import {
  type ZendeskRecord as Record_,
  type ZendeskClient,
  zendeskAgainstSandbox,
} from './support/zendesk-client.js';

/**
 * The provider's own Node client (node-zendesk), unmodified, against the
 * sandbox: every operation the sandbox emulates, and paging past 100 records
 * by following the links the sandbox answers with.
 */
let sandbox: Sandbox;
let client: ZendeskClient;

beforeAll(async () => {
  ({ sandbox, client } = await zendeskAgainstSandbox());
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
    // The seeded 35 (ticketing-seed.ts and ticketing-directory-seed.ts) and the 110 added above.
    expect(users.length).toBe(145);
    const shown = (await client.users.show(1)) as { result: Record_ };
    expect(shown.result).toMatchObject({ id: 1, role: 'admin' });
  });

  it('lists organizations and shows one', async () => {
    const organizations = (await client.organizations.list()) as unknown as Record_[];
    expect(organizations.map((organization) => organization.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const shown = (await client.organizations.show(1)) as { result: Record_ };
    expect(shown.result).toMatchObject({ id: 1, name: 'Acme Pty Ltd' });
  });
});

/**
 * The operations of the steps issue 24 added: users (search, role filter,
 * create, update), comments (added as a ticket update, listed), uploads, the
 * people fields of a ticket and the safe update that Update Ticket's
 * if_updated_at rides on.
 */
describe('node-zendesk against the ticketing sandbox: the steps of issue 24', () => {
  it('searches users and lists one role (search_users, list_users)', async () => {
    const found = (await client.users.search({ query: 'riley' })) as unknown as Record_[];
    expect(found.map((user) => user.id)).toEqual([3]);
    const agents = (await client.users.listWithFilter('role', 'agent')) as unknown as Record_[];
    expect(agents.map((user) => user.email)).toContain('sam@acme.example');
    expect(agents.every((user) => user.role === 'agent')).toBe(true);
  });

  it('creates and updates a user (create_user, update_user), and a duplicate email is a 422', async () => {
    const created = (await client.users.create({
      user: { name: 'Jo Client', email: 'jo@client.example', external_id: 'crm-1' },
    })) as { result: Record_ };
    expect(created.result).toMatchObject({ name: 'Jo Client', role: 'end-user', external_id: 'crm-1' });
    const updated = (await client.users.update(created.result.id, {
      user: { phone: '+61 400 000 000' },
    })) as {
      result: Record_;
    };
    expect(updated.result).toMatchObject({ id: created.result.id, phone: '+61 400 000 000' });
    await expect(
      client.users.create({ user: { name: 'Again', email: 'jo@client.example' } }),
    ).rejects.toMatchObject({
      statusCode: 422,
    });
  });

  it('uploads a file, adds an internal note with it, and lists the comments (upload_attachment, add_comment, list_comments)', async () => {
    const uploaded = (await client.attachments.upload(Readable.from([Buffer.from('boot log\n')]) as never, {
      filename: 'boot.log',
      binary: true,
    })) as unknown as { upload: { token: string } };
    const token = uploaded.upload.token;
    await client.tickets.update(1, {
      ticket: { comment: { body: 'Log attached.', public: false, uploads: [token] } },
    });
    const comments = (await client.tickets.getComments(1)) as unknown as Record_[];
    expect(comments.at(-1)).toMatchObject({
      body: 'Log attached.',
      public: false,
      attachments: [{ file_name: 'boot.log', size: 9 }],
    });
  });

  it('sets the people fields of a ticket, and a safe update with a stale stamp is a 409 that changes nothing', async () => {
    const created = (await client.tickets.create({
      ticket: {
        subject: 'Renew',
        comment: { body: 'Due soon.' },
        type: 'task',
        requester_id: 3,
        group_id: 5,
        due_at: '2026-06-30T09:00:00Z',
        follower_ids: [2],
        collaborator_ids: [3],
      },
    })) as { result: Record_ };
    expect(created.result).toMatchObject({
      requester_id: 3,
      organization_id: 1,
      group_id: 5,
      follower_ids: [2],
    });
    const stamp = String(created.result.updated_at);
    const stale = new Date(Date.parse(stamp) - 60_000).toISOString();
    await expect(
      client.tickets.update(created.result.id, {
        ticket: { priority: 'low', safe_update: true, updated_stamp: stale },
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
    const updated = (await client.tickets.update(created.result.id, {
      ticket: {
        priority: 'high',
        safe_update: true,
        updated_stamp: stamp,
        followers: [{ user_id: '1', action: 'put' }],
      },
    })) as { result: Record_ };
    expect(updated.result).toMatchObject({ priority: 'high', follower_ids: [2, 1] });
  });
});
