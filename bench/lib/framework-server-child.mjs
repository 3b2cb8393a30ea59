/**
 * One side of the framework figure (issue 35), in a process of its own so
 * the clients' work is not counted in it. Each side serves the same three
 * routes, the work of our servers without their business logic:
 *
 *   POST /hooks/:id             the intake's: the raw body within 256 KB, its
 *                               HMAC (hex SHA-1, the deployments rule)
 *                               checked timing-safely, 200 JSON
 *   GET  /v1/steps?q=           the builder's: a bearer token checked, a JSON
 *                               answer of the search's size
 *   POST /v1/steps/:id/options  the builder's: a bearer token checked, a
 *                               JSON body within 64 KB validated by a zod
 *                               schema, a JSON answer of the options' size
 *
 * `node` is written by hand on `node:http`, as today's three servers are;
 * `fastify` is Fastify 5 with zod validating the body (the validator
 * compiler a zod type provider installs); `hono` is Hono on
 * `@hono/node-server` with `@hono/zod-validator`. The process's CPU is
 * reported over IPC (`cpu`), as the builder figure's children do.
 *
 *   node framework-server-child.mjs <node|fastify|hono> <secret> <token> <search bytes>,<options bytes>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';

const [side, secret, token, sizes] = process.argv.slice(2);
const jsonOf = (bytes) => JSON.stringify({ padding: 'x'.repeat(Math.max(0, bytes - 14)) });
const [searchJson, optionsJson] = sizes.split(',').map((bytes) => jsonOf(Number(bytes)));
// Parsed and written again on every answer, as an answer built from data is serialised.
const answer = (json) => JSON.parse(json);
const OptionsBody = z.object({ field: z.string(), connection: z.string(), query: z.string().optional() });
const INTAKE_MAX = 256 * 1024;
const BUILDER_MAX = 64 * 1024;

const signed = (body, given) => {
  const expected = Buffer.from(createHmac('sha1', secret).update(body).digest('hex'));
  const received = Buffer.from(String(given ?? ''));
  return received.length === expected.length && timingSafeEqual(received, expected);
};
const bearerOk = (header) => header === `Bearer ${token}`;

/**
 * A package from this project or, when it is not installed here, from
 * TOOLSTEPS_BENCH_MODULES (a node_modules folder holding it: Hono is not a
 * dependency of the package, only a candidate it was measured against).
 */
async function load(name) {
  const roots = [process.cwd(), process.env.TOOLSTEPS_BENCH_MODULES].filter(Boolean);
  for (const root of roots) {
    try {
      const resolved = createRequire(path.join(root, 'noop.js')).resolve(name);
      return await import(pathToFileURL(resolved).href);
    } catch {}
  }
  throw new Error(`${name} is not installed (npm install --no-save ${name}, or set TOOLSTEPS_BENCH_MODULES)`);
}

function readAll(request, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) return reject(Object.assign(new Error('too large'), { status: 413 }));
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks, size)));
    request.on('error', reject);
  });
}

function sendJson(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

async function handleByHand(request, response) {
  const url = new URL(request.url, 'http://localhost');
  if (request.method === 'POST' && url.pathname.startsWith('/hooks/')) {
    const body = await readAll(request, INTAKE_MAX);
    const ok = signed(body, request.headers['x-vercel-signature']);
    return sendJson(response, ok ? 200 : 401, { status: ok ? 'started' : 'bad_signature' });
  }
  if (!bearerOk(request.headers.authorization)) return sendJson(response, 401, { error: 'unauthorized' });
  if (request.method === 'GET' && url.pathname === '/v1/steps')
    return sendJson(response, 200, answer(searchJson));
  if (request.method === 'POST' && /^\/v1\/steps\/[^/]+\/options$/.test(url.pathname)) {
    const parsed = OptionsBody.safeParse(JSON.parse((await readAll(request, BUILDER_MAX)).toString('utf8')));
    if (!parsed.success) return sendJson(response, 400, { error: 'input_invalid' });
    return sendJson(response, 200, answer(optionsJson));
  }
  sendJson(response, 404, { error: 'route_not_found' });
}

async function startNode() {
  const server = createServer((request, response) =>
    handleByHand(request, response).catch((error) => sendJson(response, error.status ?? 500, {})),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

async function startFastify() {
  const { default: Fastify } = await load('fastify');
  const app = Fastify({ bodyLimit: BUILDER_MAX });
  // What a zod type provider's validator compiler does: the schema's own parse.
  app.setValidatorCompiler(({ schema }) => (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  });
  app.register(async (hooks) => {
    // Every body of a hook stays raw bytes, whatever its type says: the signature is over them.
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INTAKE_MAX }, (_request, body, done) =>
      done(null, body),
    );
    hooks.post('/hooks/:id', async (request, reply) => {
      const ok = signed(request.body, request.headers['x-vercel-signature']);
      return reply.code(ok ? 200 : 401).send({ status: ok ? 'started' : 'bad_signature' });
    });
  });
  app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      if (!bearerOk(request.headers.authorization)) return reply.code(401).send({ error: 'unauthorized' });
    });
    api.get('/v1/steps', async () => answer(searchJson));
    api.post('/v1/steps/:id/options', { schema: { body: OptionsBody } }, async () => answer(optionsJson));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server.address().port;
}

async function startHono() {
  const { Hono } = await load('hono');
  const { serve } = await load('@hono/node-server');
  const { zValidator } = await load('@hono/zod-validator');
  const { bodyLimit } = await load('hono/body-limit');
  const app = new Hono();
  app.post('/hooks/:id', bodyLimit({ maxSize: INTAKE_MAX }), async (c) => {
    const body = Buffer.from(await c.req.arrayBuffer());
    const ok = signed(body, c.req.header('x-vercel-signature'));
    return c.json({ status: ok ? 'started' : 'bad_signature' }, ok ? 200 : 401);
  });
  app.use('/v1/*', async (c, next) => {
    if (!bearerOk(c.req.header('authorization'))) return c.json({ error: 'unauthorized' }, 401);
    await next();
  });
  app.get('/v1/steps', (c) => c.json(answer(searchJson)));
  app.post(
    '/v1/steps/:id/options',
    bodyLimit({ maxSize: BUILDER_MAX }),
    zValidator('json', OptionsBody),
    (c) => c.json(answer(optionsJson)),
  );
  const server = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  return server.address().port;
}

const starts = { node: startNode, fastify: startFastify, hono: startHono };
try {
  const port = await starts[side]();
  process.on('message', (message) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ type: 'cpu', cpuUs: user + system });
    }
    if (message.type === 'stop') process.exit(0);
  });
  process.send({ type: 'ready', url: `http://127.0.0.1:${port}` });
} catch (error) {
  process.send({ type: 'skipped', reason: error.message.split('\n')[0] });
  process.exit(0);
}
