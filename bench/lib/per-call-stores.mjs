import { createRequire } from 'node:module';
import { measureSides } from './cpu-sides.mjs';
import { bareRequestClient, benchConnection, PER_CALL_CASES, recordRequests } from './per-call.mjs';
import { openStoreBackends } from './store-backends.mjs';

const require = createRequire(import.meta.url);
const GET_TICKET_INFO = PER_CALL_CASES.find((entry) => entry.name === 'get_ticket_info');

/**
 * node-zendesk (the ticketing provider's own Node client, a devDependency),
 * unmodified, against the same sandbox: the ticket and its comments, as
 * get_ticket_info fetches them. Undefined when it is not installed.
 */
function zendeskSide(sandbox) {
  let zendesk;
  try {
    zendesk = require('node-zendesk');
  } catch {
    return undefined;
  }
  const client = zendesk.createClient({
    token: sandbox.token,
    oauth: true,
    endpointUri: `${sandbox.ticketing}/api/v2`,
    throwOriginalException: true,
  });
  return async () => {
    await client.tickets.show(1);
    await client.tickets.getComments(1);
  };
}

/**
 * `invoke(ticketing.get_ticket_info)` CPU per call with each connection
 * store, against the same requests on a bare undici `dispatcher.request`
 * (plus, for a shared store, one bare round trip through its own client),
 * and node-zendesk's own CPU per call: every side interleaved in one run.
 */
export async function measureStorePerCall(client, sandbox, sizes, settings) {
  const registry = client.createRegistry();
  const recorded = await recordRequests(client, sandbox, registry, GET_TICKET_INFO);
  const bare = bareRequestClient(recorded, client.sharedDispatcher());
  const { backends, skipped, close } = await openStoreBackends(
    client.build,
    benchConnection(sandbox),
    settings,
  );
  try {
    const sides = { bare };
    for (const backend of backends) {
      const runtime = new client.Runtime({ store: backend.store });
      sides[backend.name] = (unique) =>
        registry.invoke(runtime, GET_TICKET_INFO.step, {
          connection: 'bench',
          input: GET_TICKET_INFO.input(unique),
        });
      if (backend.roundTrip) {
        const trip = backend.roundTrip.run;
        sides[`bare + ${backend.roundTrip.label}`] = async (unique) => {
          await trip();
          await bare(unique);
        };
      }
    }
    const zendesk = zendeskSide(sandbox);
    if (zendesk) sides['node-zendesk'] = zendesk;
    else skipped.push('node-zendesk: not installed');
    const us = await measureSides(sides, sizes);
    return { requests: recorded.length, us, backends, skipped };
  } finally {
    await close();
  }
}
