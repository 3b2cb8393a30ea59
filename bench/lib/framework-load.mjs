import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { median } from './cpu-sides.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'bench-framework-secret';
const TOKEN = 'bench-framework-token';
/** The builder figure's answers are about this size: 20 search hits, and an options page. */
const SEARCH_BYTES = 6_000;
const OPTIONS_BYTES = 1_500;
export const FRAMEWORK_SIDES = ['node', 'fastify', 'hono'];

/** A deployments event of about the size providers send (2 KB), signed as the deployments provider signs. */
function webhook(n) {
  const body = JSON.stringify({
    id: `evt_${n}`,
    type: 'deployment.created',
    createdAt: 1_767_225_600_000,
    payload: { deployment: { id: `dpl_${n}`, url: 'example.vercel.app', meta: { note: 'x'.repeat(1_800) } } },
  });
  return { body, signature: createHmac('sha1', SECRET).update(body).digest('hex') };
}

/** The request of turn `n` for `kind`: a signed webhook, a search, or an options query. */
function requestOf(kind, n) {
  const bearer = { authorization: `Bearer ${TOKEN}` };
  if (kind === 'webhook') {
    const { body, signature } = webhook(n);
    const headers = { 'content-type': 'application/json', 'x-vercel-signature': signature };
    return { method: 'POST', path: `/hooks/sub_${n % 8}`, headers, body };
  }
  if (kind === 'search')
    return { method: 'GET', path: `/v1/steps?q=ticket${n % 8}&limit=20`, headers: bearer };
  const body = JSON.stringify({ field: 'assignee', connection: 'bench', query: `q${n % 4}` });
  const headers = { ...bearer, 'content-type': 'application/json' };
  return { method: 'POST', path: '/v1/steps/ticketing.create_ticket/options', headers, body };
}

function startSide(side) {
  const args = [side, SECRET, TOKEN, `${SEARCH_BYTES},${OPTIONS_BYTES}`];
  const child = fork(path.join(here, 'framework-server-child.mjs'), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the ${side} server exited with ${code} before it was ready`)),
    );
    child.once('message', (message) => {
      if (message.type === 'skipped') return resolve({ side, skipped: message.reason });
      const cpu = () =>
        new Promise((answered) => {
          child.once('message', (reply) => answered(reply.cpuUs));
          child.send({ type: 'cpu' });
        });
      const stop = () => {
        const exited = new Promise((done) => child.once('exit', done));
        child.send({ type: 'stop' });
        return exited;
      };
      resolve({ side, url: message.url, cpu, stop });
    });
  });
}

/** `concurrency` loops sending `count` requests of `kind` in all; the failures by status, and the wall time. */
async function drive(dispatcher, server, kind, { count, concurrency }) {
  let next = 0;
  const failures = new Map();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const turn = requestOf(kind, next++);
        const { method, headers, body } = turn;
        const answer = await request(`${server.url}${turn.path}`, {
          dispatcher,
          method,
          headers,
          body,
        }).catch((error) => ({ statusCode: error.code ?? 'error' }));
        await answer.body?.text();
        if (answer.statusCode !== 200)
          failures.set(answer.statusCode, (failures.get(answer.statusCode) ?? 0) + 1);
      }
    }),
  );
  return { failures, seconds: (performance.now() - started) / 1000 };
}

/**
 * The three sides (issue 35's choice of framework) serving the intake's and
 * the builder's kinds of request, each in a process of its own, driven by
 * one client: per kind, `rounds` rounds of `count` requests, `concurrency`
 * in flight, the sides interleaved round by round so a burst of load on the
 * shared machine hits them alike. The median server CPU per request and
 * requests per second of each side, and every failure.
 */
export async function measureFrameworks(sizes) {
  const dispatcher = new Agent({ connections: sizes.concurrency, pipelining: 1 });
  const servers = [];
  try {
    for (const side of FRAMEWORK_SIDES) servers.push(await startSide(side));
    const running = servers.filter((server) => !server.skipped);
    const results = {};
    for (const kind of ['webhook', 'search', 'options']) {
      const samples = Object.fromEntries(
        running.map((server) => [server.side, { cpu: [], rate: [], failed: 0 }]),
      );
      for (const server of running) await drive(dispatcher, server, kind, { ...sizes, count: sizes.warmup });
      for (let round = 0; round < sizes.rounds; round += 1) {
        for (const server of running) {
          const before = await server.cpu();
          const run = await drive(dispatcher, server, kind, sizes);
          const sample = samples[server.side];
          sample.cpu.push(((await server.cpu()) - before) / sizes.count);
          sample.rate.push(sizes.count / run.seconds);
          for (const count of run.failures.values()) sample.failed += count;
        }
      }
      results[kind] = Object.fromEntries(
        Object.entries(samples).map(([side, sample]) => [
          side,
          { cpuUs: median(sample.cpu), perSecond: median(sample.rate), failed: sample.failed },
        ]),
      );
    }
    const skipped = servers.filter((server) => server.skipped);
    return { sizes, results, skipped: skipped.map(({ side, skipped: reason }) => ({ side, reason })) };
  } finally {
    await Promise.all(servers.filter((server) => server.stop).map((server) => server.stop()));
    await dispatcher.close();
  }
}
