import * as z from 'zod';
import type { ConnectionCheck } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { deploymentsPaths } from './paths.js';

const AuthUser = builtOnce(() =>
  z.object({
    user: z.object({ username: z.string().max(300), email: z.string().max(300).nullish() }).loose(),
  }),
);

/** `GET /v2/user` (the provider's AuthUser): free, read-only, and names whom the token acts for. */
export const deploymentsConnectionCheck: ConnectionCheck = {
  path: deploymentsPaths.user,
  describe(body) {
    const parsed = AuthUser().safeParse(body);
    if (!parsed.success) return undefined;
    const { username, email } = parsed.data.user;
    return {
      ok: true,
      says: `signed in as ${username}${email ? ` <${email}>` : ''}`,
      account: email ?? username,
    };
  },
};
