import { createHmac, randomBytes } from 'node:crypto';
import { Agent } from 'undici';

const SECRET = 'bench-deployments-secret-0123456789';
const SUBSCRIPTION = 'sub_0bench0123456789ab';

/** A deployments subscription the intake verifies with `SECRET` (hex HMAC-SHA1 of the body). */
function subscription() {
  return {
    id: SUBSCRIPTION,
    trigger: 'deployments.deployment_started',
    connection: 'deploys',
    target: 'https://agents.example.com',
    provider: {},
    secret: SECRET,
    setup: {},
    mapping: {},
    constraints: {},
    active: true,
    manual: true,
    state: 'ready',
    createdAt: Date.now(),
  };
}

/** One signed delivery of a deployment.created event with id `id`, as the provider sends it. */
function delivery(id) {
  const body = JSON.stringify({
    type: 'deployment.created',
    id,
    createdAt: Date.now(),
    region: 'syd1',
    payload: {
      team: { id: 'team_1' },
      user: { id: 'user_1' },
      deployment: { id: 'dpl_1', url: 'web-abc.vercel.app', name: 'web', meta: {} },
      project: { id: 'prj_web' },
      target: 'production',
      links: { deployment: 'https://vercel.com/x/dpl_1', project: 'https://vercel.com/x/web' },
    },
  });
  const signature = createHmac('sha1', SECRET).update(body).digest('hex');
  return { id, body, headers: { 'content-type': 'application/json', 'x-vercel-signature': signature } };
}

/**
 * Sends `deliveries` with `concurrency` in flight on keep-alive connections
 * (the same client for every server): deliveries per second, and the event
 * ids each answer status (`started`, `duplicate`, ...) came back for. With
 * `resent` (a `{ count }`), a delivery whose connection was reset is sent
 * again and counted there, as a provider retries: under callgrind on a
 * loaded machine a server can come back to a connection after its 5 s
 * keep-alive has run out, and closes it with the request unread.
 */
async function deliverAll(base, deliveries, concurrency, resent) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  const url = new URL(`${base}/hooks/${SUBSCRIPTION}`);
  const byAnswer = {};
  let next = 0;
  const send = async (item) => {
    try {
      return await dispatcher.request({
        origin: url.origin,
        path: url.pathname,
        method: 'POST',
        headers: item.headers,
        body: item.body,
      });
    } catch (error) {
      if (!resent || error.code !== 'ECONNRESET') throw error;
      resent.count += 1;
      return send(item);
    }
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) {
        const item = deliveries[next++];
        const response = await send(item);
        const text = await response.body.text();
        const answer = `${response.statusCode} ${JSON.parse(text).status ?? ''}`.trim();
        if (!byAnswer[answer]) byAnswer[answer] = [];
        byAnswer[answer].push(item.id);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return { perSecond: deliveries.length / seconds, byAnswer };
}

/** Every event id that went in and how often each started: lost are accepted but never started, duplicated started twice. */
function countStarts(accepted, startedIds) {
  const seen = new Map();
  for (const id of startedIds) seen.set(id, (seen.get(id) ?? 0) + 1);
  const lost = accepted.filter((id) => !seen.has(id)).length;
  const duplicated = [...seen.values()].filter((count) => count > 1).length;
  return { lost, duplicated, started: seen.size };
}

/**
 * One side's run: `count` fresh events, then a tenth of them delivered again
 * (a provider's retries, untimed) which must each answer `duplicate`.
 */
async function runDeliveries(base, label, { count, concurrency }, resent) {
  const tag = `${label}_${randomBytes(3).toString('hex')}`;
  const fresh = Array.from({ length: count }, (_, index) => delivery(`evt_${tag}_${index}`));
  const timed = await deliverAll(base, fresh, concurrency, resent);
  const again = await deliverAll(
    base,
    fresh.filter((_, index) => index % 10 === 0),
    concurrency,
    resent,
  );
  return { ...timed, again: again.byAnswer, accepted: timed.byAnswer['200 started'] ?? [] };
}

export { countStarts, deliverAll, delivery, runDeliveries, SECRET, subscription };
