import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';

/**
 * The operations of the providers' official clients, read from the clients'
 * own code in node_modules (so a newer client brings its new methods), and
 * the routes a sandbox emulator serves, in one shape: `GET /v5/domains/{}`.
 * Coverage tests hold the two together with what the client tests call.
 */
export interface ClientOperation {
  /** As a test calls it: `domains.getDomains`, `tickets.update`. */
  call: string;
  route: string;
}

/** `{name}` and `:name` both become `{}`; the `.json` suffix and Zendesk's `/api/v2` prefix go. */
export function routeKey(method: string, template: string): string {
  const path = template
    .replace(/^\/api\/v2(?=\/)/, '')
    .replace(/\{[^}]+\}|:[a-zA-Z_]+/g, '{}')
    .replace(/\.json$/, '')
    .replace(/\/$/, '');
  return `${method.toUpperCase()} ${path}`;
}

const require = createRequire(import.meta.url);

/** The installed package's folder (neither package exports its package.json). */
function packageDir(name: string): string {
  const entry = require.resolve(name);
  const marker = `${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

/** Every @vercel/sdk method: its accessor, its name, and the method and path its function sends. */
export function vercelSdkOperations(): ClientOperation[] {
  const source = join(packageDir('@vercel/sdk'), 'src');
  const accessorOf = new Map<string, string>();
  for (const found of readFileSync(join(source, 'sdk', 'sdk.ts'), 'utf8').matchAll(
    /get (\w+)\(\): (\w+) \{/g,
  )) {
    accessorOf.set(found[2] as string, found[1] as string);
  }
  const callOf = new Map<string, string>();
  for (const file of readdirSync(join(source, 'sdk'))) {
    const text = readFileSync(join(source, 'sdk', file), 'utf8');
    const className = /export class (\w+) extends ClientSDK/.exec(text)?.[1];
    const accessor = className && accessorOf.get(className);
    if (!accessor) continue;
    for (const found of text.matchAll(/async (\w+)\([\s\S]*?return unwrap\w*\((\w+)\(/g)) {
      callOf.set(found[2] as string, `${accessor}.${found[1]}`);
    }
  }
  const operations: ClientOperation[] = [];
  for (const file of readdirSync(join(source, 'funcs'))) {
    const text = readFileSync(join(source, 'funcs', file), 'utf8');
    const path = /pathToFunc\("([^"]+)"\)/.exec(text)?.[1];
    const method = /method: "([A-Z]+)"/.exec(text)?.[1];
    const call = callOf.get(file.replace(/\.ts$/, ''));
    if (path && method && call) operations.push({ call, route: routeKey(method, path) });
  }
  return operations;
}

const ZENDESK_VERBS: Record<string, string> = {
  get: 'GET',
  getAll: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  requestUpload: 'POST',
};

/** Methods whose last path item is a query the caller passes (`users.search({ query })`). */
const QUERY_LAST = new Set([
  'users.search',
  'attachments.upload',
  'organizations.autocomplete',
  'views.execute',
]);

/**
 * Every node-zendesk core method whose body is one request with a path
 * array (`this.get(["tickets", e])`): string items are segments, names are
 * ids, objects are the query. Methods built otherwise are not listed.
 */
export function zendeskClientOperations(): ClientOperation[] {
  const bundle = readFileSync(join(packageDir('node-zendesk'), 'dist', 'index.js'), 'utf8');
  const modules = new Map<string, string>();
  for (const found of bundle.matchAll(
    /var (\w+)=n\(\(?\w+(?:,\w+)?\)?=>\{([\s\S]*?)\}\);(?=var |module\.exports)/g,
  )) {
    modules.set(found[1] as string, found[2] as string);
  }
  const operations: ClientOperation[] = [];
  const core = bundle.slice(bundle.indexOf('get accountsettings()'));
  for (const getter of core.matchAll(/get (\w+)\(\)\{let\{(\w+):e\}=(\w+)\(\)/g)) {
    const body = modules.get(getter[3] as string) ?? '';
    if (/super\(e,\w+\.\w+\)/.test(body)) continue;
    const requests = body.matchAll(
      /async (\w+)\(([^)]*)\)\{(?:(?!async )[\s\S])*?(?:return |,)(?:this|super)\.(get|getAll|post|put|patch|delete|requestUpload|requestAll)\((?:"([A-Z]+)",)?\[([^\]]*)\]/g,
    );
    for (const found of requests) {
      const call = `${getter[1]}.${found[1]}`;
      const verb = found[4] ?? ZENDESK_VERBS[found[3] as string];
      // What follows the first object literal is the query; so are arguments defaulting to {}.
      const queries = new Set(
        (found[2] as string)
          .split(',')
          .filter((name) => name.endsWith('={}'))
          .map((name) => name.slice(0, -3)),
      );
      const items = ((found[5] as string).split('{')[0] as string).split(',').filter(Boolean);
      if (QUERY_LAST.has(call)) items.pop();
      const segments = items
        .filter((item) => !queries.has(item) && !item.startsWith('"?'))
        .map((item) => (item.startsWith('"') ? item.slice(1, -1) : '{}'));
      if (verb) operations.push({ call, route: routeKey(verb, `/${segments.join('/')}`) });
    }
  }
  return operations;
}

/** The `<client>.<accessor>.<method>(` calls in some test files. */
export function callsIn(files: readonly string[], client: string): Set<string> {
  const calls = new Set<string>();
  for (const file of files) {
    for (const found of readFileSync(file, 'utf8').matchAll(
      new RegExp(`\\b${client}\\.(\\w+)\\.(\\w+)\\(`, 'g'),
    )) {
      calls.add(`${found[1]}.${found[2]}`);
    }
  }
  return calls;
}
