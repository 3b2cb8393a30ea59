import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Note } from './note.js';

/**
 * A small stand-in for the Acme Notes API, for tests: the routes the steps
 * and the trigger use, over real HTTP on loopback, with the provider's
 * habits (bearer key, `{"error": {...}}` bodies, cursor pages, webhooks
 * signed with a secret given once). Point a connection's `baseUrl` at `url`.
 */
export interface NotesProvider {
  url: string;
  /** The notes it holds now. */
  notes(): Note[];
  /** The webhooks it holds now (without their secrets). */
  webhooks(): { id: string; url: string; events: string[] }[];
  /** The next request with this method is carried out, and its answer lost: the connection is cut. */
  loseNextAnswer(method: 'POST' | 'DELETE'): void;
  /** Waits for the webhook deliveries under way, and answers every delivery made so far. */
  delivered(): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** One webhook delivery the provider made, and how the receiver answered it. */
export interface Delivery {
  webhook: string;
  event: string;
  /** The receiver's HTTP status, or 0 when it could not be reached. */
  status: number;
}

interface Webhook {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const NOTEBOOKS = [
  { id: 'nb_work', name: 'Work', owner: 'ann@acme.example' },
  { id: 'nb_home', name: 'Home', owner: 'ann@acme.example' },
  { id: 'nb_ideas', name: 'Ideas', owner: 'bob@acme.example' },
];

/** Items after the one whose id is `after`, at most `limit`, and the cursor of the next page. */
function page<Item extends { id: string }>(items: Item[], after: string | null, limit: number) {
  const start = after === null ? 0 : items.findIndex((item) => item.id === after) + 1;
  const slice = items.slice(start, start + Math.min(Math.max(limit, 1), 100));
  const next = start + slice.length < items.length ? (slice.at(-1)?.id ?? null) : null;
  return { slice, next };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (body && typeof body === 'object') return body as Record<string, unknown>;
  } catch {}
  throw new HttpProblem(400, 'invalid_json');
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new HttpProblem(422, `invalid_${field}`);
  return value;
}

/** Starts the stand-in on a free loopback port; every request must carry `Bearer <apiKey>`. */
export async function startNotesProvider(options: { apiKey: string }): Promise<NotesProvider> {
  const notes: Note[] = [
    {
      id: 'n_1',
      notebook: 'nb_work',
      title: 'Welcome',
      body: 'Hello.',
      created_at: new Date().toISOString(),
    },
  ];
  const webhooks = new Map<string, Webhook>();
  const deliveries: Delivery[] = [];
  const underWay = new Set<Promise<void>>();
  const losing = new Set<string>();
  let counter = 1;

  /** Sends the event to every webhook subscribed to it, signed as `x-notes-signature: t=<t>,v1=<hex>`. */
  function deliver(type: string, data: unknown): void {
    for (const hook of webhooks.values()) {
      if (!hook.events.includes(type)) continue;
      const event = `evt_${randomBytes(6).toString('hex')}`;
      const body = JSON.stringify({ id: event, type, created_at: new Date().toISOString(), data });
      const seconds = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', hook.secret).update(`${seconds}.${body}`).digest('hex');
      const sent = fetch(hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-notes-signature': `t=${seconds},v1=${signature}` },
        body,
      })
        .then(
          async (answer) => {
            await answer.arrayBuffer();
            return answer.status;
          },
          () => 0,
        )
        .then((status) => {
          deliveries.push({ webhook: hook.id, event, status });
        });
      underWay.add(sent);
      void sent.finally(() => underWay.delete(sent));
    }
  }

  function noteOf(id: string): Note {
    const note = notes.find((candidate) => candidate.id === id);
    if (!note) throw new HttpProblem(404, 'not_found');
    return note;
  }

  /** Answers one request: the status and body, or a problem thrown. */
  async function route(request: IncomingMessage, url: URL): Promise<[number, unknown]> {
    const [, version, collection, rawId, ...rest] = url.pathname.split('/');
    const id = decodeURIComponent(rawId ?? '');
    const at = `${request.method} /${version}/${collection}${rawId === undefined ? '' : '/:id'}${rest.length ? '/...' : ''}`;
    const query = (name: string) => url.searchParams.get(name);
    const limit = Number(query('limit') ?? 20);
    switch (at) {
      case 'GET /v1/me':
        return [200, { user: 'ann@acme.example' }];
      case 'GET /v1/notebooks': {
        const wanted = query('q')?.toLowerCase() ?? '';
        const found = NOTEBOOKS.filter((book) => book.name.toLowerCase().includes(wanted));
        const { slice, next } = page(found, query('after'), limit);
        return [200, { notebooks: slice, next }];
      }
      case 'GET /v1/notes': {
        const found = notes.filter(
          (note) =>
            (query('notebook') === null || note.notebook === query('notebook')) &&
            (query('title') === null || note.title === query('title')),
        );
        const { slice, next } = page(found, query('after'), limit);
        return [200, { notes: slice, next }];
      }
      case 'POST /v1/notes': {
        const body = await readJson(request);
        const notebook = text(body.notebook, 'notebook');
        if (!NOTEBOOKS.some((book) => book.id === notebook)) throw new HttpProblem(404, 'no_such_notebook');
        const note: Note = {
          id: `n_${++counter}`,
          notebook,
          title: text(body.title, 'title'),
          body: typeof body.body === 'string' ? body.body : '',
          created_at: new Date().toISOString(),
        };
        notes.push(note);
        deliver('note.created', { note });
        return [201, { note }];
      }
      case 'GET /v1/notes/:id':
        return [200, { note: noteOf(id) }];
      case 'DELETE /v1/notes/:id':
        notes.splice(notes.indexOf(noteOf(id)), 1);
        return [204, undefined];
      case 'GET /v1/webhooks':
        return [200, { webhooks: [...webhooks.values()].map(({ secret: _, ...hook }) => hook) }];
      case 'POST /v1/webhooks': {
        const body = await readJson(request);
        const events = Array.isArray(body.events) ? body.events.map(String) : [];
        const hook = { id: `wh_${++counter}`, url: text(body.url, 'url'), events, secret: '' };
        hook.secret = randomBytes(24).toString('hex');
        webhooks.set(hook.id, hook);
        return [201, { webhook: hook }];
      }
      case 'DELETE /v1/webhooks/:id':
        if (!webhooks.delete(id)) throw new HttpProblem(404, 'not_found');
        return [204, undefined];
      default:
        throw new HttpProblem(404, 'no_such_route');
    }
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      if (body === undefined) return void response.writeHead(status).end();
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(401, { error: { code: 'unauthorized', message: 'A valid API key is needed.' } });
    }
    try {
      const [status, body] = await route(request, new URL(request.url ?? '/', 'http://notes.test'));
      if (losing.delete(request.method ?? '')) return void request.socket.destroy();
      send(status, body);
    } catch (error) {
      const problem = error instanceof HttpProblem ? error : new HttpProblem(500, 'internal');
      send(problem.status, { error: { code: problem.code, message: `Refused: ${problem.code}.` } });
    }
  }

  const server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    notes: () => notes.map((note) => ({ ...note })),
    webhooks: () => [...webhooks.values()].map(({ secret: _, ...hook }) => hook),
    loseNextAnswer: (method) => void losing.add(method),
    async delivered() {
      while (underWay.size) await Promise.all(underWay);
      return [...deliveries];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
