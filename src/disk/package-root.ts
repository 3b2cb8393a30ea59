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

/** The version in toolsteps' own package.json, read as text: no JSON module import on the startup path. */
export function packageVersion(): string {
  return JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).version as string;
}
