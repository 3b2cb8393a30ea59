/**
 * Failures after which a write may or may not have happened at the provider:
 * the connection broke or timed out once the request may have left, or a
 * gateway failed without saying whether the backend acted.
 */
export function outcomeUnknown(error: unknown): boolean {
  const record = error as { code?: string; status?: number; details?: { sent?: unknown } };
  if (record.code === 'network_error' || record.code === 'timeout') return record.details?.sent !== false;
  return record.code === 'provider_error' && [500, 502, 504].includes(record.status ?? 0);
}
