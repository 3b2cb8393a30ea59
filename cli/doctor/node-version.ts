import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/disk/package-root.js';
import type { DoctorCheck } from './doctor-check.js';

/** The majors the docs promise (docs/cli.md, `doctor`); the floor comes from package.json's `engines`. */
export const TESTED_MAJORS = [20, 22, 24] as const;

/** `engines.node` of toolsteps' own package.json, `>=20.18.1` -> `20.18.1`. */
export function minimumNode(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8'));
  return String(pkg.engines?.node ?? '').replace(/^>=\s*/, '') || '0.0.0';
}

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [parts(version), parts(minimum)];
  for (let at = 0; at < 3; at += 1) {
    if ((a[at] ?? 0) !== (b[at] ?? 0)) return (a[at] ?? 0) > (b[at] ?? 0);
  }
  return true;
}

/** Node below the `engines` floor fails; a major outside the tested ones is a warning. */
export function checkNodeVersion(
  version: string = process.versions.node,
  minimum = minimumNode(),
): DoctorCheck {
  const range = `>=${minimum} (tested on ${TESTED_MAJORS.join(', ')})`;
  if (!atLeast(version, minimum)) {
    return {
      name: 'node',
      status: 'fail',
      summary: `Node ${version} is older than the supported ${minimum}: upgrade Node.`,
      details: [`supported: ${range}`],
    };
  }
  const major = parts(version)[0] as (typeof TESTED_MAJORS)[number];
  const tested = TESTED_MAJORS.includes(major);
  return {
    name: 'node',
    status: tested ? 'ok' : 'warn',
    summary: tested ? `Node ${version}` : `Node ${version} is newer than the tested majors; it should work.`,
    details: [`supported: ${range}`],
  };
}
