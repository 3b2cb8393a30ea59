import * as z from 'zod';
import type { ConnectionCheck } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { contactDataPaths } from './paths.js';

const Usage = builtOnce(() =>
  z
    .object({
      plan: z.string().max(100).nullish(),
      credits: z.object({ balance: z.number().nullish() }).loose().nullish(),
    })
    .loose(),
);

/** `GET /account/usage`: free and read-only; says the plan and the balance when the answer has them. */
export const contactDataConnectionCheck: ConnectionCheck = {
  path: contactDataPaths.usage,
  describe(body) {
    const parsed = Usage().safeParse(body);
    if (!parsed.success) return undefined;
    const { plan, credits } = parsed.data;
    const balance = credits?.balance;
    return {
      ok: true,
      says: `key accepted${plan ? `; plan ${plan}` : ''}${typeof balance === 'number' ? `; ${balance} credits left` : ''}`,
    };
  },
};
