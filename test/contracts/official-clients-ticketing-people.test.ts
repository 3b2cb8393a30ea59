import { Readable } from 'node:stream';
import zendesk from 'node-zendesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';

/**
 * node-zendesk, unmodified, against the sandbox for the operations of the
 * steps issue 24 added: users (search, role filter, create, update),
 * comments (add as a ticket update, list), uploads, the people fields of a
 * ticket and the safe update that Update Ticket's if_updated_at rides on.
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
});
afterAll(() => sandbox.close());

describe('node-zendesk against the ticketing sandbox: the steps of issue 24', () => {
  it('searches users and lists one role (search_users, list_users)', async () => {
    const found = (await client.users.search({ query: 'riley' })) as unknown as Record_[];
    expect(found.map((user) => user.id)).toEqual([3]);
    const agents = (await client.users.listWithFilter('role', 'agent')) as unknown as Record_[];
    expect(agents.map((user) => user.email)).toEqual(['sam@acme.example']);
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
