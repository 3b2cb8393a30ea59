import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { guardEndpoint, guardHeaders } from '../../src/http/request-guards.js';
import { defineIntegration } from '../../src/model/define-integration.js';
import { defineApiCallStep } from '../../src/step/api-call-step.js';
import { useFixture } from '../support/fixture-lifecycle.js';
import { ACCESS_TOKEN, HOST, nockTicketing } from '../support/nock-ticketing.js';
import { ticketingFixture } from '../support/ticketing-fixture.js';

const REFUSED_ENDPOINTS: [string, string][] = [
  ['https://evil.example/api', 'absolute URL'],
  ['http://127.0.0.1:9/x', 'absolute http URL'],
  ['javascript:alert(1)', 'other scheme'],
  ['file:///etc/passwd', 'file scheme'],
  ['//evil.example/api/v2/tickets.json', 'protocol-relative'],
  ['/\\evil.example/x', 'backslash'],
  ['/api\\v2/tickets.json', 'backslash inside'],
  ['/api/v2/../../admin', 'dot-dot'],
  ['/api/v2/%2e%2e/%2e%2e/admin', 'encoded dot-dot'],
  ['/api/v2/%2E%2E/admin', 'upper-case encoded dot-dot'],
  ['/api/v2/.%2e/admin', 'half-encoded dot-dot'],
  ['/api/v2/%252e%252e/admin', 'double-encoded dot-dot'],
  ['/api/v2/%2e%2e%2fadmin', 'encoded dot-dot-slash'],
  ['/api/v2/tickets.json\r\nX-Injected: 1', 'CRLF'],
  ['/api/v2/tickets.json\nfoo', 'LF'],
  ['/api/v2/tickets.json%0d%0aX: 1', 'encoded CRLF'],
  ['/api/v2/tickets\0.json', 'NUL'],
  ['/api/v2/tickets%00.json', 'encoded NUL'],
  ['user@evil.example/api', '@ before the first slash'],
  ['evil.example@/x', '@ before slash, trailing'],
  ['', 'empty'],
  ['/api/v2/tickets.json#frag', 'fragment'],
  ['/api/%zz', 'malformed percent-encoding'],
  ['/api/v2/.\t./.\t./admin', 'TAB inside a dot-dot (URL parsers drop TAB)'],
  ['/api/v2/.%09./admin', 'encoded TAB inside a dot-dot'],
  ['/api/v2/./tickets.json', 'a "." segment'],
  ['/api/v2/%2e/tickets.json', 'an encoded "." segment'],
  ['/api/v2/tickets.json\u007f', 'DEL'],
];

describe('API Call endpoint guard (against the sandbox: nothing is sent)', () => {
  const fx = useFixture(ticketingFixture, 'all');

  for (const [endpoint, why] of REFUSED_ENDPOINTS) {
    it(`refuses ${why}: ${JSON.stringify(endpoint)}`, async () => {
      const before = fx.sandbox.server.requestLog.length;
      const error = await fx.invoke('ticketing.api_call', { method: 'GET', endpoint }).catch((e) => e);
      expect(error).toMatchObject({ name: 'InputError', code: 'input_invalid' });
      expect(error.fields[0].path).toBe('endpoint');
      expect(fx.sandbox.server.requestLog.length).toBe(before);
    });
  }

  for (const method of ['HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get']) {
    it(`refuses method ${method} outside the allow-list`, async () => {
      const before = fx.sandbox.server.requestLog.length;
      const error = await fx
        .invokeUnchecked('ticketing.api_call', { method, endpoint: '/api/v2/users.json' })
        .catch((e) => e);
      expect(error).toMatchObject({ code: 'input_invalid' });
      expect(error.fields[0].path).toBe('method');
      expect(fx.sandbox.server.requestLog.length).toBe(before);
    });
  }

  it('refuses a body on GET', async () => {
    const error = await fx
      .invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/users.json', body: { a: 1 } })
      .catch((e) => e);
    expect(error.fields[0].path).toBe('body');
  });

  it('sends an allowed call with the connection authorization and maps the response', async () => {
    const result = await fx.invoke(
      'ticketing.api_call',
      { method: 'GET', endpoint: 'api/v2/users.json?page[size]=2' },
      { variables: { first_user: '$.body.users[0].name' } },
    );
    expect(result.output).toMatchObject({ status: 200 });
    expect(result.variables.first_user).toBe('Ada Admin');
    const last = fx.sandbox.server.requestLog.at(-1)!;
    expect(last.path).toBe('/acme/api/v2/users.json?page[size]=2');
    expect(last.headers.authorization).toMatch(/^Bearer tkt_at_/);
  });

  it('posts JSON bodies to any provider path', async () => {
    const result = await fx.invoke('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/tickets/1/comments.json',
      body: { comment: { body: 'via API Call', public: false } },
    });
    expect(result.output).toMatchObject({ status: 201 });
    expect(JSON.parse(fx.sandbox.server.requestLog.at(-1)!.rawBody)).toEqual({
      comment: { body: 'via API Call', public: false },
    });
  });
});

describe('header guard', () => {
  const reserved = [
    'Authorization',
    'cookie',
    'Host',
    'Content-Length',
    'Proxy-Authorization',
    'proxy-connection',
    'Transfer-Encoding',
  ];
  for (const name of reserved) {
    it(`refuses a caller-set ${name} header`, () => {
      expect(() => guardHeaders({ [name]: 'x' })).toThrowError(/cannot be overridden/);
    });
  }
  it('refuses CR/LF in header values and bad names', () => {
    expect(() => guardHeaders({ 'X-Ok': 'a\r\nInjected: 1' })).toThrowError(/CR, LF or NUL/);
    expect(() => guardHeaders({ 'Bad Name': 'x' })).toThrowError(/not a valid header name/);
  });
  it("refuses the integration's own credential header", () => {
    expect(() => guardHeaders({ API_KEY: 'x' }, ['api_key'])).toThrowError(/cannot be overridden/);
  });
  it('passes ordinary headers', () => {
    expect(guardHeaders({ 'X-Request-Id': 'abc' })).toEqual({ 'X-Request-Id': 'abc' });
  });

  it('an API Call step with custom headers refuses them before sending', async () => {
    const integration = defineIntegration({
      id: 'probe',
      title: 'Probe',
      description: 'test integration',
      keywords: [],
      connection: { kind: 'api_key', fields: z.object({}), requiredSecrets: ['apiKey'] },
      baseUrl: () => 'https://probe.example',
      authHeaders: ({ connection }) => ({ 'x-api-key': connection.secrets.apiKey ?? '' }),
      credentialHeaders: ['x-api-key'],
      apiCall: { methods: ['GET'] },
      paths: {},
    });
    const step = defineApiCallStep(integration, {
      pathField: 'path',
      customHeaders: true,
      title: 'Probe API Call',
      keywords: [],
      examplePath: '/v1/x',
    });
    const parsed = step.input.safeParse({ method: 'GET', path: '/v1/x', headers: { 'X-API-Key': 'stolen' } });
    expect(parsed.success).toBe(false);
  });
});

describe('guardEndpoint normalises safe paths', () => {
  it('adds a leading slash and keeps the query', () => {
    expect(guardEndpoint('api/v2/search.json?query=status:open')).toBe(
      '/api/v2/search.json?query=status:open',
    );
  });
  it('allows dots that are not a .. segment', () => {
    expect(guardEndpoint('/api/v2/file..name.json')).toBe('/api/v2/file..name.json');
  });
});

describe('redirects', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it('follows a same-origin redirect with credentials', async () => {
    const fx = nockTicketing();
    const scope = nock(HOST)
      .get('/api/v2/old.json')
      .reply(301, '', { location: '/api/v2/new.json' })
      .get('/api/v2/new.json')
      .matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`)
      .reply(200, { ok: true });
    const result = await fx.invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/old.json' });
    expect(scope.isDone()).toBe(true);
    expect(result.output).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('follows a cross-origin GET redirect without the Authorization header', async () => {
    const fx = nockTicketing();
    nock(HOST).get('/api/v2/attachments/1.json').reply(302, '', { location: 'https://files.example/blob/1' });
    const elsewhere = nock('https://files.example', { badheaders: ['authorization'] })
      .get('/blob/1')
      .reply(200, 'file body', { 'content-type': 'text/plain' });
    const result = await fx.invoke('ticketing.api_call', {
      method: 'GET',
      endpoint: '/api/v2/attachments/1.json',
    });
    expect(elsewhere.isDone()).toBe(true);
    expect(result.output).toMatchObject({ body: 'file body' });
  });

  it('drops credentials on a same-origin redirect that leaves the base path', async () => {
    const fx = nockTicketing({
      connection: { fields: { subdomain: 'acme', baseUrl: 'https://gateway.example/tenant-a' } },
    });
    nock('https://gateway.example')
      .get('/tenant-a/api/v2/x.json')
      .reply(302, '', { location: '/tenant-b/api/v2/x.json' });
    const other = nock('https://gateway.example', { badheaders: ['authorization'] })
      .get('/tenant-b/api/v2/x.json')
      .reply(200, { other: true });
    const result = await fx.invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/x.json' });
    expect(other.isDone()).toBe(true);
    expect(result.output).toMatchObject({ body: { other: true } });
  });

  it('an API call PUT with a body is not replayed after an ambiguous failure', async () => {
    const fx = nockTicketing();
    nock(HOST).put('/api/v2/tickets/1.json').reply(502, 'bad gateway');
    const error = await fx
      .invoke('ticketing.api_call', {
        method: 'PUT',
        endpoint: '/api/v2/tickets/1.json',
        body: { ticket: { comment: { body: 'hello', public: true } } },
      })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 502, retryable: false, outcome: 'unknown' });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('refuses to follow a cross-origin redirect of a write', async () => {
    const fx = nockTicketing();
    nock(HOST).post('/api/v2/tickets.json').reply(307, '', { location: 'https://evil.example/collect' });
    const error = await fx
      .invoke('ticketing.api_call', {
        method: 'POST',
        endpoint: '/api/v2/tickets.json',
        body: { ticket: {} },
      })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'provider_error' });
    expect(error.message).toContain("outside the connection's base URL");
    expect(nock.pendingMocks()).toEqual([]);
  });
});
