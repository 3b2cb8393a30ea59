import type { z } from 'zod';
import type { InvokeOptions, Runtime } from '../../src/runtime.js';
import type { Deployment } from './deployment-schema.js';
import listDeployments, { type listDeploymentsInput } from './list-deployments.js';

export interface IterateDeploymentsOptions
  extends Pick<InvokeOptions, 'connection' | 'constraints' | 'signal'> {
  /** The List Deployments filters; `cursor` is the iterator's business. */
  filters?: Omit<z.input<typeof listDeploymentsInput>, 'cursor'>;
  /** Stop after this many pages, as a guard against runaway loops. Default: no limit. */
  maxPages?: number;
}

/**
 * Every deployment matching the filters, newest first, fetched page by page
 * through the List Deployments step (so through the same pipeline: input
 * validation, project scoping, rate gate, retries).
 *
 *   for await (const deployment of iterateDeployments(runtime, { connection: 'vercel', filters: { project: 'web' } })) ...
 */
export async function* iterateDeployments(
  runtime: Runtime,
  options: IterateDeploymentsOptions,
): AsyncGenerator<Deployment, void, undefined> {
  let cursor: string | undefined;
  for (let page = 0; options.maxPages === undefined || page < options.maxPages; page += 1) {
    const result = await runtime.invoke<{ deployments: Deployment[]; next_cursor: string | null }>(
      listDeployments,
      {
        connection: options.connection,
        input: { ...options.filters, ...(cursor ? { cursor } : {}) },
        ...(options.constraints ? { constraints: options.constraints } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    yield* result.output.deployments;
    if (result.output.next_cursor === null) return;
    cursor = result.output.next_cursor;
  }
}
