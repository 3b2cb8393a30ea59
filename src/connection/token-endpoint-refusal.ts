import { AuthError, ProviderError } from '../errors/index.js';
import { redactThenCut } from '../errors/redaction.js';

/** How much of a token endpoint's error text we keep, after redaction. */
const PROVIDER_TEXT_LIMIT = 300;

/** The error for a non-2xx answer; everything the endpoint says is redacted, then cut. */
export function tokenEndpointRefusal(
  where: string,
  path: string,
  status: number,
  payload: unknown,
  secrets: string[],
) {
  const record = (payload ?? {}) as { error?: unknown; error_description?: unknown };
  const providerCode =
    typeof record.error === 'string' ? redactThenCut(record.error, secrets, 100) : undefined;
  const description =
    typeof record.error_description === 'string'
      ? redactThenCut(record.error_description, secrets, PROVIDER_TEXT_LIMIT)
      : undefined;
  const said = [providerCode, description].filter(Boolean).join(': ');
  const context = { method: 'POST', path };
  if (status === 400 || status === 401) {
    return new AuthError(`${where} refused the grant (${status}${said ? `, ${said}` : ''}).`, {
      status,
      providerCode,
      providerMessage: description,
      sent: true,
      context,
      reauthorize: providerCode === 'invalid_grant',
    });
  }
  return new ProviderError(`${where} failed (${status}${said ? `, ${said}` : ''}).`, {
    status,
    retryable: status >= 500,
    providerCode,
    providerMessage: description,
    sent: true,
    context,
  });
}
