import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { InputError } from '../../errors/index.js';
import { type PendingRevocation, pendingRevocationIdPattern } from '../../model/pending-revocation.js';
import { KeyedMutex } from '../../values/keyed-mutex.js';
import { LockedRecordStore } from '../locked-record-store.js';
import { checkPendingRevocation } from '../pending-revocation-shape.js';

/** The folder under the store's home that holds them. */
export const PENDING_REVOCATIONS_FOLDER = 'pending-revocations';

/**
 * Pending revocations as the file store keeps connections: one JSON file
 * each (mode 0600, written atomically) in a 0700 folder under the home,
 * deployment-wide (each names its tenant), so a tenant's erasure leaves its
 * grants to be revoked. The file store seals nothing: its secrets are
 * guarded by the folder's permissions, these as much as the connections.
 * A file is deleted once its revocation is done or given up.
 */
export class FilePendingRevocations extends LockedRecordStore<PendingRevocation> {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();

  constructor(home: string) {
    super({ noun: 'pending revocation', check: checkPendingRevocation });
    this.directory = path.join(home, PENDING_REVOCATIONS_FOLDER);
  }

  private fileFor(id: string): string | undefined {
    return pendingRevocationIdPattern.test(id) ? path.join(this.directory, `${id}.json`) : undefined;
  }

  async get(id: string): Promise<PendingRevocation | undefined> {
    const file = this.fileFor(id);
    if (!file) return undefined;
    try {
      return checkPendingRevocation(JSON.parse(await fs.readFile(file, 'utf8')));
    } catch (error) {
      if (isMissingFile(error)) return undefined;
      throw error;
    }
  }

  async list(): Promise<PendingRevocation[]> {
    const names = await fs.readdir(this.directory).catch((error: unknown) => {
      if (isMissingFile(error)) return [] as string[];
      throw error;
    });
    const ids = names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    // One damaged or planted file must not stop every other revocation: it is skipped (doctor lists what is read).
    const unreadable = (error: unknown) => {
      if (error instanceof InputError || error instanceof SyntaxError) return undefined;
      throw error;
    };
    const found = await Promise.all(ids.sort().map((id) => this.get(id).catch(unreadable)));
    return found.filter((item): item is PendingRevocation => item !== undefined);
  }

  protected async write(record: PendingRevocation): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fileFor(record.id)!, `${JSON.stringify(record)}\n`);
  }

  protected async delete(id: string): Promise<boolean> {
    const file = this.fileFor(id);
    return file ? unlinkIfPresent(file) : false;
  }

  protected lock<R>(id: string, work: () => Promise<R>): Promise<R> {
    return this.mutex.run(id, work);
  }
}
