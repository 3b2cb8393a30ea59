import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding toolsteps' package.json, found from this file whether it runs from src/ or dist/. */
export function packageRoot(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, 'package.json');
    if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === 'toolsteps')
      return directory;
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('Cannot find the toolsteps package root.');
    directory = parent;
  }
}
