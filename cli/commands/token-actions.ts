import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import {
  MAX_TOKEN_TTL_MS,
  TOKEN_SCOPES,
  type TokenScope,
  tenantOfTokenId,
} from '../../src/tenants/scoped-token.js';
import { signToken } from '../../src/tenants/sign-token.js';
import { TokenKeys } from '../../src/tenants/token-keys.js';
import { cliRegistry } from '../cli-context.js';
import { cliStores } from '../cli-stores.js';
import { cliTenant, cliTenantChosen } from '../cli-tenant.js';
import { cliAuditedWrite } from '../cli-write-audit.js';
import { durationOption } from '../duration-option.js';
import { printJson } from '../output.js';

interface CreateOptions {
  scope?: string[];
  integrations?: string;
  readOnly?: boolean;
  ttl: string;
}

const commaList = (values: readonly string[]) =>
  values
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter(Boolean);

function scopesOf(given: readonly string[] | undefined): TokenScope[] {
  const scopes = commaList(given ?? []);
  const unknown = scopes.filter((scope) => !(TOKEN_SCOPES as readonly string[]).includes(scope));
  if (!scopes.length || unknown.length) {
    throw new InputError(`--scope takes ${TOKEN_SCOPES.join(' or ')} (at least one).`, [
      { path: 'scope', message: `one of ${TOKEN_SCOPES.join(', ')}` },
    ]);
  }
  return scopes as TokenScope[];
}

/** The allow-list, each id checked against the catalogue so a typo never makes a token that reaches nothing. */
async function integrationsOf(given: string | undefined): Promise<string[] | undefined> {
  if (given === undefined) return undefined;
  const ids = commaList([given]);
  const known = new Set((await cliRegistry()).listIntegrations().map((integration) => integration.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (!ids.length || unknown.length) {
    throw new InputError(`--integrations: unknown integration ${unknown.join(', ') || '(none given)'}.`, [
      { path: 'integrations', message: `known: ${[...known].join(', ')}` },
    ]);
  }
  return ids;
}

/** `tokens create`: the token alone on stdout (for `$(...)`), what it grants on stderr; `--json` prints both as one document. */
export async function createToken(options: CreateOptions, command: Command): Promise<void> {
  // The first key of TOOLSTEPS_TOKEN_KEYS (or TOOLSTEPS_TOKEN_KEY's) signs; its id goes in the header.
  const key = TokenKeys.fromEnv(process.env).signing;
  const signed = await signToken({
    tenant: cliTenant(),
    scopes: scopesOf(options.scope),
    integrations: await integrationsOf(options.integrations),
    readOnly: options.readOnly ?? false,
    ttlMs: durationOption(options.ttl, '--ttl'),
    key,
  });
  const { token, tokenId, ...grants } = signed;
  // Recorded once minted, by id only: the token itself is a secret and never reaches the trail. A store
  // that cannot be opened costs the record (said on stderr), not the token, as minting needs no store.
  const trail = await cliStores()
    .then((stores) => stores.tenants.forTenant(grants.tenant).audit)
    .catch(() => undefined);
  await cliAuditedWrite(trail, { action: 'token.mint', target: tokenId }, async () => undefined);
  if (command.optsWithGlobals().json) {
    printJson({ token, id: tokenId, ...grants, expiresAt: grants.expiresAt.toISOString() });
    return;
  }
  process.stdout.write(`${token}\n`);
  const limits = [
    grants.integrations ? `integrations ${grants.integrations.join(', ')}` : 'every integration',
    grants.readOnly ? 'read-only' : 'reads and writes',
  ];
  process.stderr.write(
    `Token ${tokenId} for tenant ${grants.tenant} (${grants.scopes.join(', ')}; ${limits.join(', ')}), until ${grants.expiresAt.toISOString()}.\nRevoke it with: toolsteps tokens revoke ${tokenId}\n`,
  );
}

/**
 * `tokens revoke <id>`: the id names its tenant, so the revocation lands in
 * that tenant's store whatever the run's default; a different `--tenant`
 * beside it is refused as ambiguous. It is kept as long as any token can
 * live (90 days), since the id alone does not say when its token expires.
 */
export async function revokeToken(id: string, _options: unknown, command: Command): Promise<void> {
  const tenant = tenantOfTokenId(id);
  if (!tenant) {
    throw new InputError(
      'Not a token id: ids look like tok_<16 characters>.<tenant>, as tokens create prints.',
      [{ path: 'id', message: 'a token id' }],
    );
  }
  if (cliTenantChosen() && cliTenant() !== tenant) {
    throw new InputError(`Token ${id} belongs to tenant ${tenant}, not ${cliTenant()}.`, [
      { path: 'tenant', message: 'two different tenants' },
    ]);
  }
  const until = new Date(Date.now() + MAX_TOKEN_TTL_MS);
  const { tenants } = await cliStores();
  await cliAuditedWrite(tenants.forTenant(tenant).audit, { action: 'token.revoke', target: id }, () =>
    tenants.revocations.revoke(tenant, id, until),
  );
  if (command.optsWithGlobals().json) {
    printJson({ id, tenant, revoked: true });
    return;
  }
  process.stdout.write(
    `Revoked ${id} (tenant ${tenant}): every server on this store refuses it from its next request.\n`,
  );
}
