import { z } from 'zod';
import { definedOnly } from '../../../src/defined-only.js';
import { PlanError } from '../../../src/errors.js';
import type { ParsedProviderError, ProviderFailure } from '../../../src/integration.js';

const TicketingError = z.object({
  error: z
    .union([z.string(), z.object({ title: z.string().optional(), message: z.string().optional() })])
    .optional(),
  description: z.string().optional(),
  details: z.record(z.string(), z.array(z.object({ description: z.string().optional() }).loose())).optional(),
});

/** Reads `{error, description, details: {field: [{description}]}}`: code, message and the fields named. */
export function parseTicketingError(body: unknown): ParsedProviderError {
  if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
  const parsed = TicketingError.safeParse(body);
  if (!parsed.success) return {};
  const { error, description, details } = parsed.data;
  const providerCode = typeof error === 'string' ? error : error?.title;
  const fields = Object.entries(details ?? {}).flatMap(([field, problems]) =>
    problems.map((problem) => ({ path: field, message: problem.description ?? 'invalid' })),
  );
  const fieldText = fields.map((field) => `${field.path}: ${field.message}`).join('; ');
  const message = [typeof error === 'object' ? error.message : undefined, description, fieldText]
    .filter(Boolean)
    .join(' - ');
  return definedOnly({
    message: message || undefined,
    providerCode: providerCode || undefined,
    fields: fields.length ? fields : undefined,
  });
}

/** Triggers and some admin features answer 403 `FeatureNotAvailable` on plans that lack them. */
export function classifyTicketingError(failure: ProviderFailure, parsed: ParsedProviderError) {
  if (failure.status === 403 && parsed.providerCode === 'FeatureNotAvailable') {
    return new PlanError(
      `${failure.method} ${failure.path} needs a higher provider plan: ${parsed.message ?? ''}`.trim(),
      {
        status: 403,
        sent: true,
        providerCode: parsed.providerCode,
        providerMessage: parsed.message,
      },
    );
  }
  return undefined;
}
