/**
 * One side of the paging figure, in a process of its own so neither side's
 * heap is the other's: pages through every ticket of the sandbox `repeats`
 * times, 100 a page, and prints the RSS (MB, after a full GC) before the
 * first pass and after each one, with the heap in use at the same moments
 * (what a leak would grow; RSS also moves with what the allocator keeps), as JSON.
 *
 *   node --expose-gc paging-child.mjs <build> <ours|bare> <sandbox JSON> <repeats>
 */
import { benchRuntime, loadClient } from './per-call.mjs';

const [build, side, sandboxJson, repeatsText] = process.argv.slice(2);
const sandbox = JSON.parse(sandboxJson);
const client = await loadClient(build);
const dispatcher = client.sharedDispatcher();

/** Every page through bare fetch, the cursor read the way a hand-written client would. */
async function bareAll() {
  let seen = 0;
  let url = `${sandbox.ticketing}/api/v2/tickets.json?page%5Bsize%5D=100`;
  for (;;) {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${sandbox.token}`, accept: 'application/json' },
      dispatcher,
    });
    const page = await response.json();
    seen += page.tickets.length;
    if (!page.meta.has_more) return seen;
    url = `${sandbox.ticketing}/api/v2/tickets.json?page%5Bsize%5D=100&page%5Bafter%5D=${encodeURIComponent(page.meta.after_cursor)}`;
  }
}

const registry = client.createRegistry();
const runtime = benchRuntime(client, sandbox);
async function oursAll() {
  let seen = 0;
  let cursor;
  for (;;) {
    const input = cursor ? { limit: 100, cursor } : { limit: 100 };
    const { output } = await registry.invoke(runtime, 'ticketing.list_tickets', {
      connection: 'bench',
      input,
    });
    seen += output.tickets.length;
    if (!output.has_more) return seen;
    cursor = output.next_cursor;
  }
}

const heap = [];
const rssMb = () => {
  globalThis.gc();
  const usage = process.memoryUsage();
  heap.push(usage.heapUsed / 2 ** 20);
  return usage.rss / 2 ** 20;
};
const run = side === 'bare' ? bareAll : oursAll;
const samples = [rssMb()];
let tickets = 0;
for (let repeat = 0; repeat < Number(repeatsText); repeat += 1) {
  tickets = await run();
  samples.push(rssMb());
}
process.stdout.write(`${JSON.stringify({ tickets, samples, heap })}\n`);
process.exit(0);
