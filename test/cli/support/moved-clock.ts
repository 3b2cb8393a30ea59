import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Clock, systemClock } from '../../../src/model/clock.js';

/**
 * What a child process loads first (`NODE_OPTIONS=--require <file>`) to
 * see the test's moved clock: `Date.now()` plus the offset the test writes
 * in `TOOLSTEPS_TEST_CLOCK_FILE`, read again every 10 ms. The package's own
 * code is untouched: its system clock reads `Date.now()`.
 */
const PRELOAD = `'use strict';
const fs = require('node:fs');
const file = process.env.TOOLSTEPS_TEST_CLOCK_FILE;
const realNow = Date.now;
let offset = 0;
const read = () => { try { offset = Number(fs.readFileSync(file, 'utf8')) || 0; } catch {} };
read();
setInterval(read, 10).unref();
Date.now = () => realNow() + offset;
`;

/**
 * Real time moved on by whole days at the test's word, the same in this
 * process (the sandbox's clock) and in every child started with `env()`.
 */
export class MovedClock implements Clock {
  private offset = 0;
  readonly file: string;
  readonly preload: string;

  constructor(folder: string) {
    this.file = path.join(folder, 'clock-offset');
    this.preload = path.join(folder, 'moved-clock.cjs');
    writeFileSync(this.file, '0');
    writeFileSync(this.preload, PRELOAD);
  }

  now(): number {
    return Date.now() + this.offset;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }

  /** Moves every process's time on by `ms`. */
  async advance(ms: number): Promise<void> {
    this.offset += ms;
    await writeFile(this.file, String(this.offset));
  }

  /** What a child needs in its environment to see this clock. */
  env(): Record<string, string> {
    return { NODE_OPTIONS: `--require ${this.preload}`, TOOLSTEPS_TEST_CLOCK_FILE: this.file };
  }
}
