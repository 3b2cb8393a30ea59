import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assumptionsFromFlags,
  GOVERNANCE_SANDBOX,
  type Sandbox,
  SandboxAssumptions,
  type SandboxAssumptionsInput,
  startSandbox,
} from '../../sandbox/index.js';

/**
 * Every sandbox assumption flipped: the default behaviour, then the other
 * setting, over real sockets. What the spec and the provider facts leave
 * open is a setting, so a user whose account differs can make the sandbox
 * behave like it.
 */
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(assume?: SandboxAssumptionsInput): Promise<Sandbox> {
  sandbox = await startSandbox(assume ? { assume } : {});
  return sandbox;
}

async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

const admin = { authorization: `Bearer ${GOVERNANCE_SANDBOX.projectId}:${GOVERNANCE_SANDBOX.adminKey}` };
const viewer = { serviceDefault: { actions: { 'role:viewer': true } } };

function invite(box: Sandbox, email: string) {
  return call(`${box.baseUrl('governance', GOVERNANCE_SANDBOX.region)}/latest/auth/invite/create`, {
    method: 'POST',
    headers: admin,
    body: { email, permissions: { items: viewer } },
  });
}

describe('governance (assumption)', () => {
  it('member_invite_answer: accepted (assumption) adds accepted and user_id; invite_code_only answers as the spec shows', async () => {
    const member = GOVERNANCE_SANDBOX.users.orgMember;
    const assumed = await invite(await start(), member.email);
    expect(assumed.body).toMatchObject({ accepted: true, user_id: member.id });
    await sandbox?.close();
    const plain = await invite(
      await start({ governance: { member_invite_answer: 'invite_code_only' } }),
      member.email,
    );
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(['invite_code']);
  });

  it('second_invite: conflict (assumption) is a 409; replace deletes the pending invite and makes a new one', async () => {
    let box = await start();
    expect((await invite(box, 'dana@elsewhere.example')).status).toBe(200);
    expect((await invite(box, 'dana@elsewhere.example')).status).toBe(409);
    await box.close();
    box = await start({ governance: { second_invite: 'replace' } });
    const first = await invite(box, 'dana@elsewhere.example');
    const second = await invite(box, 'dana@elsewhere.example');
    expect(second.status).toBe(200);
    expect(second.body.invite_code).not.toBe(first.body.invite_code);
    expect(box.governance.state.invites.has(String(first.body.invite_code))).toBe(false);
  });
});

describe('anz_data (assumption)', () => {
  const lookup = (box: Sandbox, key: string) =>
    call(`${box.baseUrl('anz-data')}/enrich/company`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: { domain: 'wattle-analytics.example' },
    });

  it('credit_headers and rate_limit_headers: on by default (assumption), gone when turned off', async () => {
    let box = await start();
    let answer = await lookup(box, box.anzData.issueKey(10));
    expect(answer.headers.get('x-credits-charged')).toBe('1');
    expect(answer.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    await box.close();
    box = await start({ anz_data: { credit_headers: false, rate_limit_headers: 'none' } });
    answer = await lookup(box, box.anzData.issueKey(10));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-credits-charged')).toBeNull();
    expect(answer.headers.get('x-credits-remaining')).toBeNull();
    expect(answer.headers.get('ratelimit-remaining')).toBeNull();
  });
});

describe('contact_data (assumption)', () => {
  it('the search and usage paths (assumption) move where a user says their account has them', async () => {
    const key = { api_key: 'cd_sandbox_key_0001' };
    const search = (box: Sandbox, path: string) =>
      call(`${box.baseUrl('contact-data')}${path}`, {
        method: 'POST',
        headers: key,
        body: { filters: { jobTitle: 'engineer' }, limit: 1 },
      });
    let box = await start();
    expect((await search(box, '/person/search')).status).toBe(200);
    expect((await call(`${box.baseUrl('contact-data')}/account/usage`, { headers: key })).status).toBe(200);
    await box.close();
    box = await start({
      contact_data: { person_search_path: '/prospecting/contact/search', usage_path: '/v1/usage' },
    });
    expect((await search(box, '/person/search')).status).toBe(404);
    expect((await search(box, '/prospecting/contact/search')).status).toBe(200);
    expect((await call(`${box.baseUrl('contact-data')}/v1/usage`, { headers: key })).status).toBe(200);
  });
});

describe('ticketing (assumption)', () => {
  it('post_comments_endpoint: served by default (assumption, the spec lists it); off = 404 as the provider description has it', async () => {
    const comment = (box: Sandbox) =>
      call(`${box.baseUrl('ticketing', 'acme')}/api/v2/tickets/1/comments.json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${box.ticketing.issueTokens('acme').access_token}` },
        body: { comment: { body: 'Any news?', public: true } },
      });
    expect((await comment(await start())).status).toBeLessThan(300);
    await sandbox?.close();
    expect((await comment(await start({ ticketing: { post_comments_endpoint: false } }))).status).toBe(404);
  });
});

describe('deployments (assumption)', () => {
  it('app_token_ttl_seconds: an app token lives 1 h by default (assumption), as long as told otherwise', async () => {
    expect((await start()).deployments.issueAppTokens().expires_in).toBe(3600);
    await sandbox?.close();
    expect(
      (await start({ deployments: { app_token_ttl_seconds: 7200 } })).deployments.issueAppTokens().expires_in,
    ).toBe(7200);
  });
});

describe('setting assumptions', () => {
  it('--assume flags: integration.name=value, JSON values read as such, later flags winning', () => {
    const assumed = assumptionsFromFlags([
      'governance.second_invite=conflict',
      'governance.second_invite=replace',
      'deployments.app_token_ttl_seconds=7200',
      'anz_data.credit_headers=false',
    ]);
    expect(assumed.governance.second_invite).toBe('replace');
    expect(assumed.deployments.app_token_ttl_seconds).toBe(7200);
    expect(assumed.anz_data.credit_headers).toBe(false);
    expect(assumed.ticketing.post_comments_endpoint).toBe(true);
  });

  it('a wrong name, value or form is an InputError naming it, and no sandbox starts', async () => {
    expect(() => assumptionsFromFlags(['governance.nope=1'])).toThrowError(
      expect.objectContaining({
        code: 'input_invalid',
        fields: [expect.objectContaining({ path: 'assume.governance' })],
      }),
    );
    expect(() => assumptionsFromFlags(['governance.second_invite=maybe'])).toThrowError(
      expect.objectContaining({
        code: 'input_invalid',
        fields: [expect.objectContaining({ path: 'assume.governance.second_invite' })],
      }),
    );
    expect(() => assumptionsFromFlags(['second_invite'])).toThrowError(
      expect.objectContaining({ code: 'input_invalid' }),
    );
    await expect(startSandbox({ assume: { contact_data: { usage_path: '/../x' } } })).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });

  it('docs/sandbox.md lists every assumption in its "Sandbox assumptions" table', () => {
    const page = readFileSync('docs/sandbox.md', 'utf8');
    const section = page.slice(page.indexOf('## Sandbox assumptions'));
    expect(section.length).toBeLessThan(page.length);
    for (const [integration, schema] of Object.entries(SandboxAssumptions.shape)) {
      const inner = (schema as unknown as { unwrap(): { shape: Record<string, unknown> } }).unwrap();
      for (const name of Object.keys(inner.shape)) expect(section).toContain(`\`${integration}.${name}\``);
    }
  });
});
