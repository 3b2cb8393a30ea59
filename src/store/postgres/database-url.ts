import { InputError } from '../../errors/index.js';

/**
 * The Postgres that holds connections and subscriptions, from
 * TOOLSTEPS_DATABASE_URL; unset, they stay in files or Redis.
 * @throws InputError for a URL that is not `postgres://` or `postgresql://` (its value never printed).
 */
export function configuredDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.TOOLSTEPS_DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new InputError('TOOLSTEPS_DATABASE_URL must be a postgres:// or postgresql:// URL.', [
      { path: 'TOOLSTEPS_DATABASE_URL', message: 'postgres://user@host:5432/database' },
    ]);
  }
  return url;
}
