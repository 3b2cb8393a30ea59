import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isMissingFile, writeFileAtomic } from '../../disk/atomic-write.js';
import { parseStoredLimits, TenantLimits } from '../../model/tenant-limits.js';
import type { TenantLimitStore } from '../limit-store.js';

/** The file of a tenant's limits under its home. */
export const LIMITS_FILE = 'limits.json';

/** One tenant's limits in `<tenant home>/limits.json`, written atomically, mode 0600. */
export class FileLimitStore implements TenantLimitStore {
  readonly file: string;

  constructor(home: string) {
    this.file = path.join(home, LIMITS_FILE);
  }

  async get(): Promise<TenantLimits> {
    try {
      return parseStoredLimits(await fs.readFile(this.file, 'utf8'));
    } catch (error) {
      if (isMissingFile(error)) return {};
      throw error;
    }
  }

  async set(limits: TenantLimits): Promise<TenantLimits> {
    const checked = TenantLimits.parse(limits);
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, `${JSON.stringify(checked)}\n`);
    return checked;
  }
}
