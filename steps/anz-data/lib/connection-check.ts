import * as z from 'zod';
import type { ConnectionCheck } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { anzDataApi } from './operations.js';

const Credits = builtOnce(() =>
  z.object({ credits_remaining: z.number(), plan: z.string().max(100).nullish() }).loose(),
);

/** The free balance read (`anzDataApi.credits`, our choice of path: the spec shows none). */
export const anzDataConnectionCheck: ConnectionCheck = {
  path: anzDataApi.credits.path,
  describe(body) {
    const parsed = Credits().safeParse(body);
    if (!parsed.success) return undefined;
    const { credits_remaining: left, plan } = parsed.data;
    return { ok: true, says: `key accepted; ${left} credits left${plan ? ` (plan ${plan})` : ''}` };
  },
};
