import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { type ZendeskRecord as Record_, zendeskWorld } from './support/zendesk-client.js';

/**
 * node-zendesk, unmodified, on the sandbox routes the first client tests
 * left out (official-clients-coverage.test.ts lists them): the account's
 * directory (groups, tags, fields, forms, autocomplete), the signed-in user,
 * a ticket's tag endpoints and `additional_tags`, uploads sent the way the
 * client sends a file from disk, search export, triggers and webhooks.
 */
const fx = useFixture(zendeskWorld, 'all');

async function newTicket(tags: string[]): Promise<number> {
  const created = (await fx.client.tickets.create({
    ticket: { subject: 'Tagged', comment: { body: 'Tags.' }, tags },
  })) as { result: Record_ };
  return created.result.id;
}

describe('node-zendesk against the ticketing sandbox: directory, tags, uploads, triggers, webhooks', () => {
  it('reads the signed-in user, groups, tags, ticket fields and forms, and autocompletes organizations', async () => {
    const me = (await fx.client.users.me()) as { result: Record_ };
    expect(me.result).toMatchObject({ id: 1, role: 'admin' });
    const groups = (await fx.client.groups.list()) as unknown as Record_[];
    expect(groups.length).toBeGreaterThan(0);
    const tags = (await fx.client.tags.list()) as unknown as Record_[];
    expect(tags.length).toBeGreaterThan(0);
    const fields = (await fx.client.ticketfields.list()) as unknown as Record_[];
    expect(fields.map((field) => field.type)).toContain('subject');
    const forms = (await fx.client.ticketforms.list()) as unknown as Record_[];
    expect(forms.length).toBeGreaterThan(0);
    const found = (await fx.client.organizations.autocomplete({ name: 'acm' })) as unknown as Record_[];
    expect(found.map((organization) => organization.name)).toContain('Acme Pty Ltd');
  });

  it('lists the active views and the tickets of one', async () => {
    const views = (await fx.client.views.listActive()) as unknown as Record_[];
    expect(views.map((view) => view.title)).toContain('Open and new tickets');
    // The client answers this call with the list of answered pages, as it does a tag call.
    const pages = (await fx.client.views.tickets(25001)) as unknown as { tickets: Record_[] }[];
    const tickets = pages.flatMap((page) => page.tickets);
    expect(tickets.length).toBeGreaterThan(0);
    expect(tickets.every((ticket) => ['new', 'open'].includes(String(ticket.status)))).toBe(true);
  });

  it('lists suspended tickets, recovers one as a ticket and deletes another', async () => {
    const held = (await fx.client.suspendedtickets.list()) as unknown as Record_[];
    expect(held.map((record) => record.id)).toEqual([8000001, 8000002, 8000003]);
    // The description answers the recovered ticket as a list of one under `ticket`.
    const recovered = (await fx.client.suspendedtickets.recover(8000003)) as unknown as {
      result: { ticket: Record_[] };
    };
    expect(recovered.result.ticket).toMatchObject([{ subject: 'Refund for order 1182', status: 'new' }]);
    await fx.client.suspendedtickets.delete(8000002);
    await expect(fx.client.suspendedtickets.delete(8000002)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('lists macros (all and active), reads one and shows what it would do to a ticket', async () => {
    // The client's list reads the active macros (`macros/active`), as listActive does.
    const listed = (await fx.client.macros.list()) as unknown as Record_[];
    expect(listed.map((macro) => macro.id)).toEqual([360111001, 360111002]);
    // listByParams reads `macros` by cursor (page[size]) with the filters given.
    const off = (await fx.client.macros.listByParams({ active: false } as never)) as unknown as Record_[];
    expect(off.map((macro) => macro.id)).toEqual([360111003]);
    const active = (await fx.client.macros.listActive()) as unknown as { result: Record_[] };
    expect(active.result.map((macro) => macro.id)).toEqual([360111001, 360111002]);
    const one = (await fx.client.macros.show(360111002)) as unknown as { result: { macro: Record_ } };
    expect(one.result.macro).toMatchObject({ id: 360111002, title: 'Support::Escalate' });
    const changes = (await fx.client.macros.applyTicket(1, 360111002)) as unknown as {
      result: { result: { ticket: Record_ } };
    };
    expect(changes.result.result.ticket).toMatchObject({ id: 1, priority: 'urgent', group_id: 360003 });
  });

  it('searches macros by title and lists their categories', async () => {
    // The client unwraps the macros of the answer into `result`; categories come as its list of pages.
    const found = (await fx.client.macros.search('escalate')) as unknown as { result: Record_[] };
    expect(found.result.map((macro) => macro.id)).toEqual([360111002]);
    const categories = (await fx.client.macros.categories()) as unknown as { categories: string[] }[];
    expect(categories).toEqual([{ categories: ['Billing', 'Support'] }]);
  });

  it('reads one group, ticket field and form; creates, updates and deletes an organization; deletes a user', async () => {
    const group = (await fx.client.groups.show(360001)) as { result: Record_ };
    expect(group.result).toMatchObject({ id: 360001, name: 'Support' });
    const field = (await fx.client.ticketfields.show(900001)) as { result: Record_ };
    expect(field.result).toMatchObject({ id: 900001, type: 'subject' });
    const form = (await fx.client.ticketforms.show(5001)) as { result: Record_ };
    expect(form.result).toMatchObject({ id: 5001, default: true });
    const created = (await fx.client.organizations.create({
      organization: { name: 'Client Co', domain_names: ['client.example'] },
    })) as { result: Record_ };
    expect(created.result).toMatchObject({ name: 'Client Co', domain_names: ['client.example'] });
    const updated = (await fx.client.organizations.update(created.result.id, {
      organization: { notes: 'Via the client.' },
    })) as { result: Record_ };
    expect(updated.result).toMatchObject({ id: created.result.id, notes: 'Via the client.' });
    await fx.client.organizations.delete(created.result.id);
    await expect(fx.client.organizations.show(created.result.id)).rejects.toMatchObject({ statusCode: 404 });
    const user = (await fx.client.users.create({
      user: { name: 'Short Stay', email: 'short@stay.example' },
    })) as {
      result: Record_;
    };
    // The client's own types say void; it answers `{ response, result }` like every call.
    const deleted = (await fx.client.users.delete(user.result.id)) as unknown as { result: Record_ };
    expect(deleted.result).toMatchObject({ id: user.result.id, active: false });
    await expect(fx.client.users.show(user.result.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('adds tags without replacing (PUT tags, additional_tags), sets them (POST tags), removes only the named (remove_tags)', async () => {
    const id = await newTicket(['alpha', 'beta']);
    // The client answers a tag call with the list of answered pages.
    const added = await fx.client.tickets.addTags(id, { tags: ['gamma'] } as never);
    expect(added).toEqual([{ tags: ['alpha', 'beta', 'gamma'] }]);
    const more = (await fx.client.tickets.update(id, {
      ticket: { additional_tags: ['delta'] },
    } as never)) as {
      result: Record_;
    };
    expect(more.result.tags).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    const fewer = (await fx.client.tickets.update(id, { ticket: { remove_tags: ['beta'] } } as never)) as {
      result: Record_;
    };
    expect(fewer.result.tags).toEqual(['alpha', 'gamma', 'delta']);
    const set = await fx.client.tickets.updateTags(id, { tags: ['only'] } as never);
    expect(set).toEqual([{ tags: ['only'] }]);
  });

  it('uploads a file from disk as the client sends it (its default JSON header), typed by its name, and deletes an upload', async () => {
    const path = join(tmpdir(), `toolsteps-upload-${process.pid}.png`);
    writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const uploaded = (await fx.client.attachments.upload(path as never, {
      filename: 'screen.png',
      binary: true,
    })) as unknown as { upload: { token: string; attachment: Record_ } };
    expect(uploaded.upload.attachment).toMatchObject({
      file_name: 'screen.png',
      content_type: 'image/png',
      size: 8,
    });
    const sent = fx.sandbox.server.requestLog.at(-1);
    expect(sent?.headers['content-type']).toBe('application/json');
    await fx.client.attachments.deleteUpload(uploaded.upload.token);
    await expect(
      fx.client.tickets.update(1, { ticket: { comment: { body: 'x', uploads: [uploaded.upload.token] } } }),
    ).rejects.toMatchObject({ statusCode: 422 });
  });

  it('exports search results with the cursor the sandbox gives', async () => {
    await newTicket(['exported']);
    const results = (await fx.client.search.exportResults('tags:exported', 'ticket')) as unknown as Record_[];
    expect(results.map((ticket) => ticket.tags)).toEqual([['exported']]);
  });

  it('creates, lists, shows and deletes a webhook and a trigger that notifies it', async () => {
    const webhook = (await fx.client.webhooks.create({
      webhook: {
        name: 'Ticket events',
        endpoint: 'http://127.0.0.1:9/hook',
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions: ['conditional_ticket_events'],
      },
    })) as { result: Record_ };
    // Webhook ids are strings (the client's types say so); the record type says number.
    const webhookId = String(webhook.result.id);
    expect((await fx.client.webhooks.show(webhookId)) as { result: Record_ }).toMatchObject({
      result: { id: webhookId, name: 'Ticket events' },
    });
    const secret = (await fx.client.webhooks.getSigningSecret(webhookId)) as { result: Record_ };
    expect(secret.result).toMatchObject({ signing_secret: { algorithm: 'SHA256' } });
    const patched = (await fx.client.webhooks.patch(webhookId, { webhook: { name: 'Renamed' } })) as {
      response: { status: number };
    };
    expect(patched.response.status).toBe(204);
    const webhooks = (await fx.client.webhooks.list()) as unknown as Record_[];
    expect(webhooks.find((entry) => String(entry.id) === webhookId)).toMatchObject({ name: 'Renamed' });
    expect(webhooks.map((entry) => String(entry.id))).toContain(webhookId);
    const trigger = (await fx.client.triggers.create({
      trigger: {
        title: 'Tell the hook',
        conditions: { all: [{ field: 'update_type', operator: 'is', value: 'Create' }] },
        actions: [{ field: 'notification_webhook', value: [webhookId, '{}'] }],
      },
    })) as { result: Record_ };
    const triggerId = trigger.result.id;
    expect((await fx.client.triggers.show(triggerId)) as { result: Record_ }).toMatchObject({
      result: { id: triggerId, title: 'Tell the hook' },
    });
    const triggers = (await fx.client.triggers.list()) as unknown as Record_[];
    expect(triggers.map((entry) => entry.id)).toContain(triggerId);
    await fx.client.triggers.delete(triggerId);
    await fx.client.webhooks.delete(webhookId);
    await expect(fx.client.webhooks.show(webhookId)).rejects.toMatchObject({ statusCode: 404 });
  });
});
