import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imports the first of `candidates` (paths inside the build `build`) that
 * exists: files moved in issue 35 (src/tenants/ and src/store/<kind>/ into
 * src/store/<backend>/), and `--build` of an older commit (the baseline
 * 2672ba1 that issue 35's "no worse" compares with) still has them where
 * they were.
 */
export function importBuilt(build, ...candidates) {
  const found = candidates.map((file) => path.join(build, file)).find((file) => existsSync(file));
  if (!found) throw new Error(`none of ${candidates.join(', ')} in ${build}`);
  return import(pathToFileURL(found).href);
}
