import * as z from 'zod';
import type { ConnectionCheck } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { ticketingPaths } from './paths.js';

const Me = builtOnce(() =>
  z.object({
    user: z
      .object({
        id: z.number().nullable(),
        name: z.string().max(300).nullish(),
        email: z.string().max(300).nullish(),
        role: z.string().max(50).nullish(),
      })
      .loose(),
  }),
);

/**
 * `GET /api/v2/users/me` ("Show Self"): free, read-only. The provider
 * allows it for anonymous users too, so a 200 whose user has no id means
 * the token was not used: that is a failed check, not a pass.
 */
export const ticketingConnectionCheck: ConnectionCheck = {
  path: ticketingPaths.me,
  describe(body) {
    const parsed = Me().safeParse(body);
    if (!parsed.success) return undefined;
    const { id, name, email, role } = parsed.data.user;
    if (id === null)
      return { ok: false, says: 'the provider answered as an anonymous user: the token was not accepted' };
    return {
      ok: true,
      says: `signed in as ${name ?? `user ${id}`}${email ? ` <${email}>` : ''}${role ? ` (${role})` : ''}`,
      account: email ?? name ?? `user ${id}`,
    };
  },
};
