import type * as z from 'zod';
import { definedOnly, type InvokeOptions, type Runtime } from '../../../src/kit/index.js';
import listDeployments, { type listDeploymentsInput } from '../list-deployments.js';
import type { Deployment } from './deployment-schema.js';

/** Which deployments to walk: the connection and filters of List Deployments, without its cursor, which the iterator keeps. */
export interface IterateDeploymentsOptions
  extends Pick<InvokeOptions, 'connection' | 'constraints' | 'signal'> {
  /** The List Deployments filters; `cursor` is the iterator's business. */
  filters?: Omit<z.input<ReturnType<typeof listDeploymentsInput>>, 'cursor'>;
  /** Stop after this many pages, as a guard against runaway loops. Default: no limit. */
  maxPages?: number;
}

/**
 * Every deployment matching the filters, newest first, each once, fetched
 * page by page through the List Deployments step (so through the same
 * pipeline: input validation, project scoping, rate gate, retries).
 *
 *   for await (const deployment of iterateDeployments(runtime, { connection: 'vercel', filters: { project: 'web' } })) ...
 *
 * The provider's cursor is a creation time, and its `until` is strict: a
 * deployment created in the same millisecond as the last one of a page, but
 * cut off by the limit, would be skipped by the next page. So each next page
 * starts one millisecond later than the cursor says, overlapping the previous
 * page by that millisecond, and deployments already yielded are dropped by
 * id. Left over: when a whole page (up to `limit`, at most 100) shares one
 * millisecond, the iterator moves strictly past it to make progress, and
 * further deployments of that millisecond are skipped.
 */
export async function* iterateDeployments(
  runtime: Runtime,
  options: IterateDeploymentsOptions,
): AsyncGenerator<Deployment, void, undefined> {
  const seen = new Set<string>();
  let until: number | undefined;
  for (let page = 0; options.maxPages === undefined || page < options.maxPages; page += 1) {
    const result = await runtime.invoke<{ deployments: Deployment[]; next_cursor: string | null }>(
      listDeployments,
      {
        connection: options.connection,
        input: definedOnly({ ...options.filters, cursor: until === undefined ? undefined : String(until) }),
        ...definedOnly({ constraints: options.constraints, signal: options.signal }),
      },
    );
    for (const deployment of result.output.deployments) {
      if (seen.has(deployment.id)) continue;
      seen.add(deployment.id);
      yield deployment;
    }
    if (result.output.next_cursor === null) return;
    const boundary = Number(result.output.next_cursor);
    // Overlap by the boundary millisecond, unless that would ask for the same page again.
    until = until !== undefined && boundary + 1 >= until ? boundary : boundary + 1;
  }
}
