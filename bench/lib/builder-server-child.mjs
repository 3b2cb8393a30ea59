/**
 * The server side of the builder-under-load figure, in a process of its own
 * so the 200 clients' work is not counted in it. `builder`: the builder API
 * as `toolsteps serve` starts it (startBuilderServer over the steps'
 * registry, in-memory tenant stores, session tokens), tenant `bench` holding
 * the ticketing connection `bench` to the sandbox, the per-token rate limit
 * raised out of the way (the clients share one token). `bare`: a
 * `node:http` server answering as many bytes of JSON as the builder's answer
 * to the same route (a search's or an options answer's), with
 * the same `Server-Timing: app;dur=` taken the same way (from its handler's
 * start to the JSON written). Provider requests (every undici request this
 * process makes, counted on undici's diagnostics channel) and the process's
 * CPU are reported over IPC (`counts`), so the figure can say how many its
 * measured requests made and what each cost the server. `mark` enters
 * uv_os_getpriority, where a count under callgrind is split.
 *
 *   node builder-server-child.mjs <build> builder <sandbox JSON> [<timeouts ms>]
 *   node builder-server-child.mjs <build> bare <search bytes>,<options bytes>
 */
import diagnostics from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import os from 'node:os';
import { startBenchBuilder } from './bench-builder.mjs';
import { benchConnection } from './per-call.mjs';

const [build, side, argument, timeoutsText] = process.argv.slice(2);
/** Under a counter (builder-instructions.mjs): headers, request and keep-alive timeouts this long. */
const timeoutsMs = timeoutsText ? Number(timeoutsText) : undefined;

let providerRequests = 0;
diagnostics.subscribe('undici:request:create', () => {
  providerRequests += 1;
});

const jsonOf = (bytes) => JSON.stringify({ padding: 'x'.repeat(Math.max(0, bytes - 14)) });

async function startBare(sizes) {
  const [search, options] = sizes.split(',').map((bytes) => jsonOf(Number(bytes)));
  const server = createServer((request, response) => {
    const started = performance.now();
    request.resume();
    request.on('end', () => {
      // Parsed and written again, as an answer built from data would be serialised.
      const text = JSON.stringify(JSON.parse(request.url.includes('/options') ? options : search));
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'server-timing': `app;dur=${(performance.now() - started).toFixed(2)}`,
      });
      response.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    token: 'none',
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const running =
  side === 'builder'
    ? await startBenchBuilder(build, { connections: [benchConnection(JSON.parse(argument))], timeoutsMs })
    : await startBare(argument);
process.on('message', async (message) => {
  if (message.type === 'counts') {
    const { user, system } = process.cpuUsage();
    return process.send({ type: message.type, providerRequests, cpuUs: user + system });
  }
  if (message.type === 'mark') {
    // Under callgrind (builder-instructions.mjs) the count is split where this enters uv_os_getpriority.
    os.getPriority();
    return process.send({ type: message.type });
  }
  if (message.type === 'stop') {
    await running.close();
    process.exit(0);
  }
});
process.send({ type: 'ready', url: running.url, token: running.token });
