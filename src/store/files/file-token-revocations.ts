import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { type Clock, systemClock } from '../../model/clock.js';
import type { TenantId } from '../../model/tenant-id.js';
import { TOKEN_ID_PATTERN } from '../../model/token-id.js';
import type { TokenRevocations } from '../token-revocations.js';

/**
 * Revocations in files: one per revoked token, `<tenant home>/tokens/revoked/<id>`,
 * holding when it may be forgotten. One file per id needs no lock (a
 * revocation is written whole, atomically) and a lookup is one read.
 */
export class FileTokenRevocations implements TokenRevocations {
  constructor(
    /** The folder a tenant's records live under (`FileTenantStores.homeOf`). */
    private readonly homeOf: (tenant: TenantId) => string,
    private readonly clock: Clock = systemClock,
  ) {}

  private file(tenant: TenantId, tokenId: string): string | undefined {
    // Checked before it becomes a path: a token id holds no slash and is never "." or "..".
    if (!TOKEN_ID_PATTERN.test(tokenId)) return undefined;
    return path.join(this.homeOf(tenant), 'tokens', 'revoked', tokenId);
  }

  async revoke(tenant: TenantId, tokenId: string, until: Date): Promise<void> {
    const file = this.file(tenant, tokenId);
    if (!file) return;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${JSON.stringify({ until: until.getTime() })}\n`);
  }

  async isRevoked(tenant: TenantId, tokenId: string): Promise<boolean> {
    const file = this.file(tenant, tokenId);
    if (!file) return false;
    const text = await fs.readFile(file, 'utf8').catch((error: unknown) => {
      if (isMissingFile(error)) return undefined;
      throw error;
    });
    if (text === undefined) return false;
    const until = Number((JSON.parse(text) as { until?: unknown }).until);
    // An unreadable time keeps the token refused: a revocation errs on the side of refusing.
    if (!Number.isFinite(until) || until > this.clock.now()) return true;
    await unlinkIfPresent(file);
    return false;
  }
}
