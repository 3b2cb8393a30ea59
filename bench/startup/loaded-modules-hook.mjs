import { appendFileSync } from 'node:fs';

/**
 * Loader hook (runs on the hooks thread): appends the URL of every module
 * Node loads through the ESM loader to $TOOLSTEPS_MODULE_LOG, one a line.
 * Appending synchronously means nothing is lost when the process exits.
 */
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(process.env.TOOLSTEPS_MODULE_LOG, `${url}\n`);
  return nextLoad(url, context);
}
