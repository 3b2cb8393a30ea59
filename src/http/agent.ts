import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

/**
 * undici is a graph of over a hundred files: it is loaded when the first
 * dispatcher is made, not when this module is, so `toolsteps --help`, a
 * search of the catalogue, and an embedder that only builds a manifest never
 * pay for it. `require` keeps `createDispatcher` synchronous.
 */
const loadUndici = () => createRequire(import.meta.url)('undici') as typeof import('undici');

export interface DispatcherOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/**
 * One keep-alive dispatcher for every request. When a proxy variable is set,
 * EnvHttpProxyAgent routes through it and honours NO_PROXY.
 */
/** Whether the environment names a proxy, which only our own dispatcher honours. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => Boolean(env[name]));
}

export function createDispatcher(
  options: DispatcherOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  const agentOptions = {
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
  };
  const { Agent, EnvHttpProxyAgent } = loadUndici();
  if (!proxyConfigured(env)) return new Agent(agentOptions);
  // Loopback never goes through a proxy: the sandbox and the OAuth callback live there.
  const noProxy = [env.NO_PROXY ?? env.no_proxy, 'localhost,127.0.0.1,::1'].filter(Boolean).join(',');
  return new EnvHttpProxyAgent({ ...agentOptions, noProxy });
}

let shared: Dispatcher | undefined;

export function sharedDispatcher(): Dispatcher {
  shared ??= createDispatcher();
  return shared;
}

/** Closes the shared dispatcher so a CLI run can exit without waiting for idle sockets. */
export async function closeSharedDispatcher(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}
