import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';

/**
 * A generated catalogue of `integrations` x `stepsPerIntegration` steps (a
 * bench fixture, never shipped), to measure what a peer-sized catalogue
 * costs: search, describe and the manifest. Titles, ids and keywords come
 * from small vocabularies, so a query matches many steps, as a real one
 * does in a catalogue of thousands.
 */
const VERBS = ['create', 'get', 'list', 'update', 'delete', 'search', 'archive', 'export', 'assign', 'merge'];
const NOUNS = [
  'ticket',
  'invoice',
  'customer',
  'contact',
  'deal',
  'order',
  'project',
  'task',
  'user',
  'file',
];
const BRANDS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'wonka',
  'tyrell',
  'cyberdyne',
];
const KINDS = ['crm', 'desk', 'billing', 'storage', 'chat', 'hr', 'erp', 'mail', 'docs', 'ads'];

export const CATALOG_QUERIES = [
  'create ticket',
  'acme crm create contact',
  'list invoices',
  'delete',
  'wonka billing export order',
  'merge customers',
  'storage file upload',
  'nothing matches this query',
];

function integrationOf(kit, index) {
  const brand = BRANDS[index % BRANDS.length];
  const kind = KINDS[Math.floor(index / BRANDS.length) % KINDS.length];
  const id = `${brand}_${kind}_${index}`;
  return kit.defineIntegration({
    id,
    title: `${brand[0].toUpperCase()}${brand.slice(1)} ${kind.toUpperCase()} ${index}`,
    description: `A generated ${kind} provider.`,
    keywords: [kind, brand],
    connection: { kind: 'api_key', fields: z.object({}), requiredSecrets: ['apiKey'] },
    baseUrl: () => 'http://127.0.0.1:9/api',
    authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.apiKey}` }),
    apiCall: { methods: ['GET'] },
    paths: {},
  });
}

function stepOf(kit, integration, index) {
  const verb = VERBS[index % VERBS.length];
  const noun = NOUNS[Math.floor(index / VERBS.length) % NOUNS.length];
  const title = `${verb[0].toUpperCase()}${verb.slice(1)} ${noun[0].toUpperCase()}${noun.slice(1)}`;
  return kit.defineStep({
    id: `${integration.id}.${verb}_${noun}_${index}`,
    integration,
    title,
    description: `${title} in ${integration.title}.`,
    agentDescription: `${title} in ${integration.title}: give the ${noun}'s fields; answers the ${noun}.`,
    keywords: [noun, `${noun}s`, verb],
    variables: { id: '$.id' },
    input: z.object({
      name: z.string().min(1).describe(`The ${noun}'s name.`),
      amount: z.number().int().optional().describe('An amount.'),
      status: z.enum(['open', 'pending', 'closed']).optional(),
      tags: z.array(z.string()).max(20).optional(),
    }),
    output: z.object({ id: z.number(), name: z.string() }),
    access:
      verb === 'delete'
        ? 'destructive'
        : ['get', 'list', 'search', 'export'].includes(verb)
          ? 'read'
          : 'write',
    idempotent: verb !== 'create',
    async run() {
      return { id: 1, name: 'x' };
    },
  });
}

/** A registry of the generated catalogue, built with the kit as an outside integration would be. */
export async function generatedRegistry(build, integrations, stepsPerIntegration) {
  const kit = await import(pathToFileURL(path.join(build, 'src/kit/index.js')).href);
  const registry = new kit.Registry();
  for (let index = 0; index < integrations; index += 1) {
    const integration = integrationOf(kit, index);
    registry.registerIntegration(integration);
    for (let step = 0; step < stepsPerIntegration; step += 1)
      registry.registerStep(stepOf(kit, integration, step));
  }
  return registry;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

/** Per-call times of `work` over `rounds` passes of `inputs`, after one warm pass: p50 and p99 in ms. */
function timed(inputs, rounds, work) {
  for (const input of inputs) work(input);
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const input of inputs) {
      const start = performance.now();
      work(input);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** The same as `timed` for work that answers a promise (describe is async, for its per-account form). */
async function timedAsync(inputs, rounds, work) {
  for (const input of inputs) await work(input);
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const input of inputs) {
      const start = performance.now();
      await work(input);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/**
 * Search and describe on the generated catalogue and on the real one, and
 * the manifest's build time per step at three sizes (linear means the same
 * per-step time at each).
 */
export async function measureCatalogScale(build, { integrations, stepsPerIntegration, rounds }) {
  const load = (file) => import(pathToFileURL(path.join(build, file)).href);
  const [{ createRegistry }, { buildManifest }] = await Promise.all([
    load('steps/index.js'),
    load('src/catalog/manifest.js'),
  ]);
  const large = await generatedRegistry(build, integrations, stepsPerIntegration);
  const real = createRegistry();
  // What the builder's describe route and the MCP catalogue's describe call: the step's input schema with its options marked.
  const describeOf = (registry) => (id) => registry.describe(id);
  const ids = (registry, count) =>
    registry
      .listSteps()
      .filter((_, index) => index % Math.max(1, Math.floor(registry.listSteps().length / count)) === 0)
      .slice(0, count)
      .map((step) => step.id);
  const search = (registry) => timed(CATALOG_QUERIES, rounds, (query) => registry.search(query, 20));
  const manifestPerStep = [];
  for (const share of [0.1, 0.5, 1]) {
    const registry = await generatedRegistry(
      build,
      Math.max(1, Math.round(integrations * share)),
      stepsPerIntegration,
    );
    const steps = registry.listSteps().length;
    const start = performance.now();
    buildManifest(registry);
    manifestPerStep.push({ steps, usPerStep: ((performance.now() - start) * 1000) / steps });
  }
  return {
    steps: large.listSteps().length,
    integrations,
    realSteps: real.listSteps().length,
    search: { large: search(large), real: search(real) },
    describe: {
      large: await timedAsync(ids(large, 200), rounds, describeOf(large)),
      real: await timedAsync(ids(real, 40), rounds, describeOf(real)),
    },
    manifestPerStep,
  };
}
