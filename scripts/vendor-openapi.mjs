#!/usr/bin/env node
/**
 * Vendors the subset of the providers' published OpenAPI descriptions that
 * the contract tests check against, with its provenance.
 *
 *   node scripts/vendor-openapi.mjs [source-dir] [--check]
 *
 * source-dir defaults to ../shared/spec/openapi (the project's shared specs,
 * which a user's clone does not have: hence the copy). The output is
 * contracts/openapi/<name>.json: only the operations listed below and the
 * components they reference, transitively, unchanged. Output is
 * deterministic: the same sources give byte-identical files.
 *
 * --check regenerates in memory and fails when a vendored file differs from
 * what the sources give. Without the sources it checks only that every
 * vendored file parses, is OpenAPI 3.0 and carries its provenance.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const VENDORED_DIR = join(root, 'contracts', 'openapi');

/**
 * What to take from each source. Each vendored copy carries its provenance
 * (`x-provenance`: repository, file, commit, date; see docs/sandbox.md),
 * written from these entries when a source is refreshed.
 */
export const SELECTIONS = [
  {
    output: 'zendesk-support.json',
    source: 'zendesk-support-api.yaml',
    provenance: {
      description: "Zendesk Support API 2.0.0: Zendesk's published OAS",
      repository: 'botbrains-io/python-zendesk',
      path: 'openapi-src.yaml',
      commit: '806dda64',
      taken: '2025-06',
    },
    operations: {
      '/api/v2/tickets': ['get', 'post'],
      '/api/v2/tickets/{ticket_id}': ['get', 'put', 'delete'],
      '/api/v2/tickets/{ticket_id}/comments': ['get'],
      '/api/v2/tickets/{ticket_id}/tags': ['get', 'post', 'put', 'delete'],
      '/api/v2/search': ['get'],
      '/api/v2/search/export': ['get'],
      '/api/v2/users': ['get', 'post'],
      '/api/v2/users/{user_id}': ['get', 'put', 'delete'],
      '/api/v2/users/search': ['get'],
      '/api/v2/organizations': ['get', 'post'],
      '/api/v2/organizations/{organization_id}': ['get', 'put', 'delete'],
      '/api/v2/organizations/autocomplete': ['get'],
      '/api/v2/users/me': ['get'],
      '/api/v2/groups': ['get'],
      '/api/v2/groups/{group_id}': ['get'],
      '/api/v2/ticket_fields': ['get'],
      '/api/v2/ticket_fields/{ticket_field_id}': ['get'],
      '/api/v2/ticket_forms': ['get'],
      '/api/v2/ticket_forms/{ticket_form_id}': ['get'],
      '/api/v2/views/active': ['get'],
      '/api/v2/views/{view_id}/tickets': ['get'],
      '/api/v2/suspended_tickets': ['get'],
      '/api/v2/suspended_tickets/{id}': ['delete'],
      '/api/v2/suspended_tickets/{id}/recover': ['put'],
      '/api/v2/macros': ['get'],
      '/api/v2/macros/active': ['get'],
      '/api/v2/macros/search': ['get'],
      '/api/v2/macros/categories': ['get'],
      '/api/v2/macros/{macro_id}': ['get'],
      '/api/v2/tickets/{ticket_id}/macros/{macro_id}/apply': ['get'],
      '/api/v2/uploads': ['post'],
      '/api/v2/uploads/{token}': ['delete'],
      '/api/v2/triggers': ['get', 'post'],
      '/api/v2/triggers/{trigger_id}': ['get', 'put', 'delete'],
    },
  },
  {
    output: 'zendesk-webhooks.json',
    source: 'zendesk-webhooks-api.yaml',
    provenance: {
      description: 'Zendesk Webhooks API 2.0',
      repository: 'botbrains-io/python-zendesk',
      path: 'openapi-webhooks.yaml',
      commit: 'e19b1b76',
      taken: '2026-05',
    },
    operations: {
      '/webhooks': ['get', 'post'],
      '/webhooks/{webhook_id}': ['get', 'put', 'patch', 'delete'],
      '/webhooks/{webhook_id}/signing_secret': ['get', 'post'],
      '/webhooks/test': ['post'],
    },
  },
  {
    output: 'vercel.json',
    source: 'vercel-api.json',
    provenance: {
      description:
        "Vercel REST API: the OpenAPI document Vercel's TypeScript SDK is generated from (Apache-2.0)",
      repository: 'vercel/sdk',
      path: 'vercel-spec.json',
      commit: '1aada4a8',
      taken: '2025-10',
    },
    operations: {
      '/v6/deployments': ['get'],
      '/v13/deployments': ['post'],
      '/v13/deployments/{idOrUrl}': ['get'],
      '/v13/deployments/{id}': ['delete'],
      '/v12/deployments/{id}/cancel': ['patch'],
      '/v10/projects': ['get'],
      '/v11/projects': ['post'],
      '/v9/projects/{idOrName}': ['get', 'patch', 'delete'],
      '/v3/deployments/{idOrUrl}/events': ['get'],
      '/v10/projects/{idOrName}/env': ['get', 'post'],
      '/v9/projects/{idOrName}/env/{id}': ['patch', 'delete'],
      '/v9/projects/{idOrName}/domains': ['get'],
      '/v9/projects/{idOrName}/domains/{domain}': ['get', 'delete'],
      '/v10/projects/{idOrName}/domains': ['post'],
      '/v9/projects/{idOrName}/domains/{domain}/verify': ['post'],
      '/v6/domains/{domain}/config': ['get'],
      '/v5/domains': ['get'],
      '/v5/domains/{domain}': ['get'],
      '/v4/aliases': ['get'],
      '/v4/aliases/{idOrAlias}': ['get'],
      '/v2/deployments/{id}/aliases': ['post'],
      '/v2/aliases/{aliasId}': ['delete'],
      '/v10/projects/{projectId}/promote/{deploymentId}': ['post'],
      '/v3/teams/{teamId}/members': ['get'],
      '/v2/teams': ['get'],
      '/v2/teams/{teamId}': ['get'],
      '/v2/user': ['get'],
      '/v1/webhooks': ['get', 'post'],
      '/v1/webhooks/{id}': ['get', 'delete'],
    },
  },
];

function readSource(file) {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

/** Every local `$ref` inside a value, e.g. `#/components/schemas/Ticket`. */
function refsIn(value, found = []) {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/')) found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

function pointer(document, ref) {
  const parts = ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let value = document;
  for (const part of parts) {
    value = value?.[part];
    if (value === undefined) throw new Error(`Unresolvable $ref ${ref}`);
  }
  return { parts, value };
}

/** Sorts keys of a plain object, so the output does not depend on discovery order. */
function sortedKeys(object) {
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, object[key]]),
  );
}

export function extract(document, selection) {
  const paths = {};
  for (const [path, methods] of Object.entries(selection.operations)) {
    const item = document.paths?.[path];
    if (!item) throw new Error(`${selection.source}: no path ${path}`);
    const kept = {};
    for (const key of ['summary', 'description', 'parameters', 'servers']) {
      if (item[key] !== undefined) kept[key] = item[key];
    }
    for (const method of methods) {
      if (!item[method]) throw new Error(`${selection.source}: no ${method.toUpperCase()} ${path}`);
      kept[method] = item[method];
    }
    paths[path] = kept;
  }
  // Components reachable from the kept operations, transitively.
  const components = {};
  const seen = new Set();
  const queue = refsIn(paths);
  while (queue.length) {
    const ref = queue.shift();
    if (seen.has(ref)) continue;
    seen.add(ref);
    const { parts, value } = pointer(document, ref);
    if (parts[0] !== 'components' || parts.length !== 3) throw new Error(`Unexpected $ref ${ref}`);
    components[parts[1]] ??= {};
    components[parts[1]][parts[2]] = value;
    queue.push(...refsIn(value));
  }
  if (document.components?.securitySchemes) components.securitySchemes = document.components.securitySchemes;
  const sortedComponents = sortedKeys(
    Object.fromEntries(Object.entries(components).map(([kind, entries]) => [kind, sortedKeys(entries)])),
  );
  return {
    'x-provenance': {
      ...selection.provenance,
      sourceFile: selection.source,
      extractedBy: 'scripts/vendor-openapi.mjs',
      operations: Object.entries(selection.operations).flatMap(([path, methods]) =>
        methods.map((method) => `${method.toUpperCase()} ${path}`),
      ),
    },
    openapi: document.openapi,
    info: document.info,
    ...(document.servers ? { servers: document.servers } : {}),
    ...(document.security ? { security: document.security } : {}),
    paths,
    components: sortedComponents,
  };
}

export function render(vendored) {
  return `${JSON.stringify(vendored, null, 2)}\n`;
}

/** Problems with a vendored file that needs no source to see; empty when it is sound. */
export function vendoredProblems(file) {
  if (!existsSync(file)) return [`${file} is missing`];
  let document;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [`${file} is not JSON: ${error.message}`];
  }
  const problems = [];
  if (!/^3\.0\.\d+$/.test(String(document.openapi))) problems.push(`${file}: not OpenAPI 3.0`);
  const provenance = document['x-provenance'] ?? {};
  for (const key of ['repository', 'path', 'commit', 'taken', 'sourceFile']) {
    if (typeof provenance[key] !== 'string' || provenance[key] === '') {
      problems.push(`${file}: x-provenance.${key} is missing`);
    }
  }
  if (!document.paths || Object.keys(document.paths).length === 0) problems.push(`${file}: no paths`);
  for (const ref of refsIn(document)) {
    try {
      pointer(document, ref);
    } catch {
      problems.push(`${file}: dangling ${ref}`);
    }
  }
  return problems;
}

function main(argv) {
  const check = argv.includes('--check');
  const sourceDir = resolve(
    argv.find((arg) => !arg.startsWith('--')) ?? join(root, '..', 'shared', 'spec', 'openapi'),
  );
  const problems = [];
  const haveSources = SELECTIONS.every((selection) => existsSync(join(sourceDir, selection.source)));
  if (!haveSources && !check) {
    console.error(`No provider descriptions in ${sourceDir}: give their folder as the first argument.`);
    return 2;
  }
  for (const selection of SELECTIONS) {
    const file = join(VENDORED_DIR, selection.output);
    if (!haveSources) {
      problems.push(...vendoredProblems(file));
      continue;
    }
    const text = render(extract(readSource(join(sourceDir, selection.source)), selection));
    if (check) {
      const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (current !== text) problems.push(`${file} differs from ${selection.source}: re-run without --check`);
    } else {
      mkdirSync(VENDORED_DIR, { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${file} (${Object.keys(selection.operations).length} paths)`);
    }
  }
  if (check) {
    if (!haveSources) console.log(`No sources in ${sourceDir}: checked the vendored files alone.`);
    for (const problem of problems) console.error(problem);
    if (!problems.length) console.log('Vendored provider descriptions are sound.');
  }
  return problems.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
