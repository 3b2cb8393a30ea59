import type { Registry } from '../src/catalog/registry.js';
import { stepAtReference } from '../src/catalog/versioned-lookup.js';
import type { AnyStep } from '../src/step/define-step.js';
import { parseReference } from '../src/step/step-version.js';
import { cliStores } from './cli-stores.js';

/**
 * The catalogue of every step. Loaded when a command first needs it, not when
 * the command tree is built, so `--version` and `--help` never load the steps.
 */
export async function cliRegistry(): Promise<Registry> {
  const { createRegistry } = await import('../steps/index.js');
  return createRegistry();
}

const STEP_ID = /^([a-z0-9_]+)\.([a-z0-9_]+)$/;

/**
 * One step, loaded from its own module (`steps/<integration>/<name>.js`, the
 * id with - for _) so `run` loads one step and its integration instead of
 * the whole catalogue; an id that names no such module (a former id, a typo)
 * goes to the registry, which resolves aliases and suggests the closest ids.
 */
export async function cliStep(stepId: string): Promise<AnyStep> {
  // `id@major` loads the step's module as the bare id does, then picks the major; an unknown one goes to the registry's error.
  const id = parseReference(stepId)?.id ?? stepId;
  const [, integration, name] = STEP_ID.exec(id) ?? [];
  if (integration && name) {
    const module = await stepModule(integration.replaceAll('_', '-'), name.replaceAll('_', '-'));
    const step = module?.default;
    const found = step?.id === id ? stepAtReference(stepId, () => step) : undefined;
    if (found) return found;
  }
  return (await cliRegistry()).requireStep(stepId);
}

/**
 * The module `steps/<folder>/<file>.js`, or undefined when there is none: Node
 * then rejects with ERR_MODULE_NOT_FOUND, the bundled CLI's table of step
 * modules throws its own error. Any failure means "ask the registry", which
 * imports every step module, so a step that fails to load fails there too,
 * with its own error, rather than being hidden.
 */
async function stepModule(folder: string, file: string): Promise<{ default?: AnyStep } | undefined> {
  try {
    // Inline, not built into a variable first: the bundler expands a template-literal
    // import into a table of every step module it matches, and cannot follow a variable.
    return await import(`../steps/${folder}/${file}.js`);
  } catch {
    return undefined;
  }
}

/** How long the command lives: `serving` (the MCP server, listen) makes many calls, a one-shot command one or a few. */
export interface CliRuntimeOptions {
  serving?: boolean;
  /** Who the audit trail names for this command's write steps; default `cli`. */
  caller?: string;
}

/**
 * A runtime over the connection store (files, or Redis with
 * TOOLSTEPS_REDIS_URL, whose coordinator then shares the rate gates), for
 * commands that call a provider.
 */
export async function cliRuntime(options: CliRuntimeOptions = {}) {
  const [stores, { Runtime }, { proxyConfigured }] = await Promise.all([
    cliStores(),
    import('../src/runtime/runtime.js'),
    import('../src/http/dispatcher-wire.js'),
  ]);
  const store = stores.connections;
  // A one-shot command without a proxy to honour sends its steps' requests on node:http: the
  // undici package (over a hundred files) would be most of a cold `run`, and Node's own fetch
  // compiles its bundled undici and web streams on first use, which node:http does not need.
  // OAuth token requests still use that fetch (docs/transport.md). A serving command pays for
  // the undici package once and then sends every call on its Agent; a proxied run needs that
  // Agent's proxy rules.
  const transport = options.serving || proxyConfigured() ? 'undici' : 'node-http';
  const coordination = stores.coordinator ? { coordination: stores.coordinator } : {};
  const runtime = new Runtime({
    tenant: stores.tenant,
    store,
    transport,
    ...coordination,
    caller: options.caller ?? 'cli',
    audit: stores.audit,
    limits: stores.limits,
  });
  return { store, stores, runtime };
}

/** What every command that calls a provider works with: the registry of steps and a runtime over the store. */
export async function cliContext(options: CliRuntimeOptions = {}) {
  const [registry, { store, runtime, stores }] = await Promise.all([cliRegistry(), cliRuntime(options)]);
  return { registry, store, runtime, stores };
}
