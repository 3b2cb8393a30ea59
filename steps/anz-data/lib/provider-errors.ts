import * as z from 'zod';
import { builtOnce, definedOnly, type ParsedProviderError } from '../../../src/kit/index.js';

/** `{"error": {"code", "message", "param"}}`, the sandbox's error body; text bodies are kept short. */
const AnzError = builtOnce(() =>
  z.object({
    error: z
      .union([
        z.string(),
        z.object({
          code: z.string().optional(),
          message: z.string().optional(),
          param: z.string().optional(),
        }),
      ])
      .optional(),
    message: z.string().optional(),
  }),
);

/** Reads the provider's error body: a code (`error` as a string, or `error.code`), a message and the field it names. */
export function parseAnzDataError(body: unknown): ParsedProviderError {
  if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
  const parsed = AnzError().safeParse(body);
  if (!parsed.success) return {};
  const { error, message } = parsed.data;
  if (typeof error === 'string') return definedOnly({ providerCode: error, message });
  const text = error?.message ?? message;
  return definedOnly({
    message: text,
    providerCode: error?.code,
    fields: error?.param ? [{ path: error.param, message: text ?? 'invalid' }] : undefined,
  });
}
