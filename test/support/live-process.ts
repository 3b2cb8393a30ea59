import { existsSync, readFileSync } from 'node:fs';

/** Whether `pid` is a live process (a killed one not yet reaped, a zombie, counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && / Z /.test(readFileSync(stat, 'utf8')));
}
