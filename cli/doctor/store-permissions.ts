import fs from 'node:fs/promises';
import path from 'node:path';
import type { DoctorCheck } from './doctor-check.js';

/** Folders under $TOOLSTEPS_HOME that hold secrets or state, each 0700 with 0600 files. */
const FOLDERS = [
  '.',
  'connections',
  'subscriptions',
  'triggers',
  'triggers/dedupe',
  'triggers/dedupe/journal',
] as const;

const mode = (stat: { mode: number }) => (stat.mode & 0o777).toString(8).padStart(3, '0');

async function statOrUndefined(file: string) {
  return fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** What is wrong in one folder: its own mode, and every file in it open to others. */
async function folderProblems(folder: string): Promise<string[]> {
  const stat = await statOrUndefined(folder);
  if (!stat?.isDirectory()) return [];
  const problems = stat.mode & 0o077 ? [`${folder} is ${mode(stat)}, expected 700`] : [];
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(folder, entry.name);
    const fileStat = await statOrUndefined(file);
    if (fileStat && fileStat.mode & 0o077) problems.push(`${file} is ${mode(fileStat)}, expected 600`);
  }
  return problems;
}

/**
 * Where connections and subscriptions live, and whether anyone but the
 * owner can read them: the folder 0700 and every file 0600, as the stores write them.
 */
export async function checkStorePermissions(home: string): Promise<DoctorCheck> {
  const stat = await statOrUndefined(home);
  if (!stat) {
    return {
      name: 'store',
      status: 'info',
      summary: `${home} does not exist yet; the first connection creates it (0700).`,
      details: ['set TOOLSTEPS_HOME to keep it elsewhere'],
    };
  }
  const problems = (
    await Promise.all(FOLDERS.map((folder) => folderProblems(path.join(home, folder))))
  ).flat();
  return {
    name: 'store',
    status: problems.length ? 'fail' : 'ok',
    summary: problems.length
      ? `${home}: ${problems.length} place${problems.length === 1 ? '' : 's'} open to other users (chmod 700 folders, 600 files).`
      : `${home}: folders 0700, files 0600`,
    details: problems,
  };
}
