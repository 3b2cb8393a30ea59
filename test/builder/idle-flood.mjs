// An outsider without any token, as its own process: it holds connections to
// the builder server open (idle, headers half-sent, bodies half-sent) and
// opens a new one whenever the server closes one, on loopback only, until its
// stdin closes or <ms> pass, whichever is first, within a bounded count. It
// prints `flooding` once its first connections are all open. Then it stops reopening, waits until the server
// has closed what it will, prints how many of its connections it still holds
// (per source address) as one JSON line, closes them all and exits.
//
// node idle-flood.mjs <port> <ms> <connections per address> <source address>...
import net from 'node:net';

const [port, ms, perAddress] = process.argv.slice(2, 5).map(Number);
const sources = process.argv.slice(5);
/**
 * At most this many connections in all, and at most this many opened per
 * 10 ms tick (500 a second): the flood stays bounded. The attack is holding
 * connections, not the rate of opening them (a rate flood costs any server
 * CPU, and is a proxy's or firewall's to limit); the rate only has to be
 * well above what the server closes, so every place it frees is fought for.
 */
const MAX_OPENED = 6_000;
const PER_TICK = 5;
const HEAD = 'POST /v1/connections HTTP/1.1\r\nHost: 127.0.0.1\r\n';
const KINDS = [
  '',
  `${HEAD}Content-Type: appl`,
  `${HEAD}Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"integration":`,
];

let opened = 0;
let closedByServer = 0;
let flooding = true;
const live = new Set();
const waiting = [];

function open(source, kind) {
  opened += 1;
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: source });
  live.add(socket);
  socket.on('connect', () => {
    if (kind) socket.write(kind);
  });
  socket.on('error', () => {});
  // Read (and drop) whatever the server answers: a socket left paused never sees the server close it.
  socket.resume();
  socket.on('close', () => {
    live.delete(socket);
    if (!flooding) return;
    closedByServer += 1;
    waiting.push([source, kind]);
  });
}

for (let index = 0; index < perAddress; index += 1) {
  for (const source of sources) waiting.push([source, KINDS[index % KINDS.length]]);
}
const initial = waiting.length;
let announced = false;
const ticker = setInterval(() => {
  for (let count = 0; count < PER_TICK && waiting.length && opened < MAX_OPENED; count += 1) {
    open(...waiting.shift());
  }
  if (!announced && opened >= initial) {
    announced = true;
    process.stdout.write('flooding\n');
  }
}, 10);

function heldPerSource() {
  const held = {};
  for (const socket of live) {
    // A socket still connecting (its SYN waiting on a full accept queue) is not held by the server.
    if (socket.destroyed || socket.connecting || !socket.localAddress) continue;
    held[socket.localAddress] = (held[socket.localAddress] ?? 0) + 1;
  }
  return held;
}

/** Once the count of held connections has not moved for 300 ms (3 s at most): the server has had its say. */
async function settled() {
  let last = '';
  for (let waited = 0; waited < 3_000; waited += 300) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = JSON.stringify(heldPerSource());
    if (now === last) break;
    last = now;
  }
  return heldPerSource();
}

async function stop() {
  if (!flooding) return;
  flooding = false;
  clearInterval(ticker);
  const held = await settled();
  process.stdout.write(`${JSON.stringify({ opened, closedByServer, held })}\n`);
  for (const socket of live) socket.destroy();
  process.exit(0);
}
setTimeout(stop, ms);
process.stdin.on('end', stop);
process.stdin.resume();
