import { NotFoundError } from '../errors/index.js';
import type { HttpClient } from '../http/http-client.js';
import type { RemovalOutcome } from './provider-webhook.js';

/**
 * `DELETE <path>` of something a trigger made at the provider (a webhook, a
 * rule): `removed`, or `already_gone` when the provider answers 404 (someone
 * deleted it in the provider's settings, or an earlier removal whose answer
 * was lost did). Removal reports either, and carries on; any other failure
 * is thrown.
 */
export async function deleteIfPresent(http: HttpClient, path: string): Promise<RemovalOutcome> {
  try {
    await http.request({ method: 'DELETE', path });
    return 'removed';
  } catch (error) {
    if (error instanceof NotFoundError) return 'already_gone';
    throw error;
  }
}
