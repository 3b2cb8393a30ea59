import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { contractFixture } from './support/contract-fixture.js';
import { expectConforming } from './support/provider-contracts.js';

const fx = useFixture(contractFixture, 'all');

/** The steps of issue 24 against the ticketing provider's description: what they send and what the sandbox answers. */
describe('ticketing comments, uploads, users and organizations against the provider description', () => {
  it('list_users (by role, cursor-paged), search_users (offset-paged), get_user', async () => {
    const listed = await fx.exchangesOf('ticketing.list_users', { role: 'agent', limit: 1 });
    const searched = await fx.exchangesOf('ticketing.search_users', { query: 'acme', limit: 1, cursor: '2' });
    const shown = await fx.exchangesOf('ticketing.get_user', { user_id: 3 });
    expectConforming([...listed.exchanges, ...searched.exchanges, ...shown.exchanges]);
  });

  it('create_user (the look by email, then the POST) and update_user', async () => {
    const created = await fx.exchangesOf('ticketing.create_user', {
      name: 'Jo Contract',
      email: 'jo@contract.example',
      role: 'end-user',
      organization_id: 1,
      phone: '+61 2 5550 0000',
      tags: ['vip'],
    });
    expect(created.exchanges.map((exchange) => exchange.method)).toEqual(['GET', 'POST']);
    const id = (created.output as { user: { id: number } }).user.id;
    const updated = await fx.exchangesOf('ticketing.update_user', {
      user_id: id,
      notes: 'Prefers email.',
      suspended: false,
    });
    expectConforming([...created.exchanges, ...updated.exchanges]);
  });

  it('list_organizations and get_organization', async () => {
    const listed = await fx.exchangesOf('ticketing.list_organizations', { limit: 5 });
    const shown = await fx.exchangesOf('ticketing.get_organization', { organization_id: 1 });
    expectConforming([...listed.exchanges, ...shown.exchanges]);
  });

  it('upload_attachment, add_comment with its token, list_comments newest first', async () => {
    const uploaded = await fx.exchangesOf('ticketing.upload_attachment', {
      file_name: 'log.txt',
      content_type: 'text/plain',
      content_base64: Buffer.from('boot failed\n').toString('base64'),
    });
    const token = (uploaded.output as { token: string }).token;
    const commented = await fx.exchangesOf('ticketing.add_comment', {
      ticket_id: 1,
      body: 'Log attached.',
      visibility: 'internal',
      author_id: 2,
      upload_tokens: [token],
    });
    const listed = await fx.exchangesOf('ticketing.list_comments', {
      ticket_id: 1,
      newest_first: true,
      limit: 2,
    });
    // The upload's body is a file, not JSON: only its path, method and query are checked.
    expectConforming([
      { ...uploaded.exchanges[0]!, body: undefined },
      ...commented.exchanges,
      ...listed.exchanges,
    ]);
  });

  it('create_ticket and update_ticket with people fields, and update_ticket under if_updated_at (safe_update)', async () => {
    const created = await fx.exchangesOf('ticketing.create_ticket', {
      subject: 'Renew',
      description: 'Licence due.',
      type: 'task',
      requester_id: 3,
      group_id: 2,
      organization_id: 1,
      due_at: '2026-06-30T09:00:00Z',
      followers: [2],
      collaborators: [3],
    });
    const ticket = (created.output as { ticket: { id: number; updated_at: string } }).ticket;
    const updated = await fx.exchangesOf('ticketing.update_ticket', {
      ticket_id: ticket.id,
      add_followers: [1],
      remove_followers: [2],
      add_collaborators: [1],
      due_at: null,
      add_tags: ['renewal'],
      if_updated_at: ticket.updated_at,
    });
    const put = updated.exchanges.find((exchange) => exchange.method === 'PUT');
    expect(put?.body).toMatchObject({ ticket: { safe_update: true, updated_stamp: ticket.updated_at } });
    expectConforming([...created.exchanges, ...updated.exchanges]);
  });
});
