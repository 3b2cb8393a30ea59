import * as z from 'zod';
import {
  builtOnce,
  CreditError,
  definedOnly,
  type ParsedProviderError,
  PlanError,
  type ProviderFailure,
} from '../../../src/kit/index.js';

/** `{statusCode, message, errors[]}`; entries of `errors` are strings or `{field, message}`. */
const ContactDataErrorBody = builtOnce(() =>
  z.object({
    statusCode: z.number().optional(),
    message: z.string().optional(),
    errors: z
      .array(
        z.union([
          z.string(),
          z
            .object({
              field: z.string().optional(),
              property: z.string().optional(),
              message: z.string().optional(),
            })
            .loose(),
        ]),
      )
      .optional(),
  }),
);

/** Reads the provider's error body: its message, its status code as the provider code, and the fields it names. */
export function parseContactDataError(body: unknown): ParsedProviderError {
  if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
  const parsed = ContactDataErrorBody().safeParse(body);
  if (!parsed.success) return {};
  const fields = (parsed.data.errors ?? []).flatMap((entry) => {
    if (typeof entry === 'string') return [{ path: 'body', message: entry }];
    return [{ path: entry.field ?? entry.property ?? 'body', message: entry.message ?? 'invalid' }];
  });
  const fieldText = fields.map((field) => `${field.path}: ${field.message}`).join('; ');
  const message = [parsed.data.message, fieldText].filter(Boolean).join(' - ');
  return definedOnly({
    message: message || undefined,
    providerCode: parsed.data.statusCode === undefined ? undefined : String(parsed.data.statusCode),
    fields: fields.length ? fields : undefined,
  });
}

/** The provider's two statuses that mean something the shared classification cannot know: 402 and 403. */
export function classifyContactDataError(failure: ProviderFailure, parsed: ParsedProviderError) {
  const where = `${failure.method} ${failure.path}`;
  const said = parsed.message ? `: ${parsed.message}` : '';
  const known = {
    sent: true,
    providerMessage: parsed.message,
    context: { method: failure.method, path: failure.path },
  };
  // 402: the key's credits are spent. Never retried: trying again cannot help until credits are added.
  if (failure.status === 402) {
    return new CreditError(`${where} was refused: the account is out of credits (402)${said}.`, {
      ...known,
      status: 402,
      hint: 'Add credits to the provider account, then run the step again.',
    });
  }
  // 403: the provider's plan for this key does not include the endpoint.
  if (failure.status === 403) {
    return new PlanError(`${where} is not included in the provider plan of this API key (403)${said}.`, {
      ...known,
      status: 403,
      hint: 'Upgrade the provider plan, or use the single-record steps.',
    });
  }
  return undefined;
}
