import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Preload (`node --import ./count-loaded-modules.mjs ...`) that records every
 * file the program loads in $TOOLSTEPS_MODULE_LOG: ES modules through a loader
 * hook, CommonJS files (which Node 20 requires without the ESM hooks) from
 * require.cache at exit. The log may name a file twice; readers dedupe.
 */
register('./loaded-modules-hook.mjs', import.meta.url);

const log = process.env.TOOLSTEPS_MODULE_LOG;
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const required = Object.keys(require.cache).map((file) => `${pathToFileURL(file).href}\n`);
  appendFileSync(log, required.join(''));
});
