import { randomBytes } from 'node:crypto';
import {
  constants,
  linkSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/** How a claim log's generation is opened: appended to whole (O_APPEND), read back through the same descriptor. */
export const LOG_FLAGS = constants.O_RDWR | constants.O_APPEND;

/** The file of one generation of the claim log in `directory`. */
export function generationFile(directory: string, generation: number): string {
  return path.join(directory, `claims-${generation}.log`);
}

/** The highest generation in `directory`; -1 when there is none. */
export function newestGeneration(directory: string): number {
  const found = readdirSync(directory).map((name) => /^claims-(\d{1,12})\.log$/.exec(name)?.[1]);
  return Math.max(-1, ...found.map((number) => Number(number ?? -1)));
}

/** Writes all of `text` at the end of the file (one write, unless the disk takes less). */
export function writeWhole(descriptor: number, text: string): void {
  const bytes = Buffer.from(text, 'latin1');
  for (let written = 0; written < bytes.length; ) {
    written += writeSync(descriptor, bytes, written, bytes.length - written);
  }
}

/**
 * Makes `generation` holding `text` (mode 0600), unless it exists: the text
 * goes to a file of this process's own first, which is then linked to the
 * generation's name. A link never replaces a file, so of the processes that
 * try at once exactly one makes it, and nobody ever reads a generation
 * whose first lines are still being written.
 */
export function createGeneration(directory: string, generation: number, text: string): void {
  const target = generationFile(directory, generation);
  const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { encoding: 'latin1', mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Never made: the disk would not take it.
    }
  }
}

/**
 * How many generations back a generation's name is kept (as a tombstone):
 * a name deleted could be made again by a process that fell that far behind,
 * and would fork the log.
 */
const NAMES_KEPT = 1_000;

/**
 * Empties a generation every process has moved past: its file is replaced
 * by a tombstone, a seal alone, so its name stays taken (a process that
 * still reads it finds the seal and moves on, and none can make it again).
 * The name of the generation `NAMES_KEPT` back goes.
 */
export function removeGeneration(directory: string, generation: number): void {
  if (generation < 0) return;
  const target = generationFile(directory, generation);
  const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, '\ns 0 $\n', { encoding: 'latin1', mode: 0o600, flag: 'wx' });
    renameSync(temporary, target);
  } catch {
    // A full disk keeps the old generation a while longer: the next advance tries again.
    rmSync(temporary, { force: true });
  }
  rmSync(generationFile(directory, generation - NAMES_KEPT), { force: true });
}
