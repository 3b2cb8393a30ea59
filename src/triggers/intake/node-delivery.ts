import type { IncomingMessage } from 'node:http';
import { RawHeaders } from '../../http/raw-headers.js';
import { requestChunks } from '../../server/capped-body.js';
import type { Intake } from './intake.js';

/** What to write back for one delivery: its status and JSON, and whether the body was left unread. */
export interface NodeDeliveryAnswer {
  status: number;
  text: string;
  /**
   * The body was not read to its end (too large, or nothing here could use
   * it): the answer closes the connection, and the rest is drained meanwhile.
   */
  unread: boolean;
}

/**
 * One delivery off a Node request, through the intake: whatever server
 * received it (`toNodeListener`'s `node:http`, the intake's Fastify routes),
 * the intake reads the raw body itself, with the capped reader, once it has
 * looked the hook up. Never throws: a failure is the intake's 500.
 */
export async function nodeDelivery(intake: Intake, request: IncomingMessage): Promise<NodeDeliveryAnswer> {
  const { status, text } = await intake
    .handle({
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      // Read where Node put them: copying each into a Headers checked and sorted every header of every delivery.
      headers: new RawHeaders(request.headers),
      body: requestChunks(request),
    })
    .then(
      (answer) => ({ status: answer.status, text: JSON.stringify(answer.body) }),
      () => ({ status: 500, text: JSON.stringify({ status: 'internal_error' }) }),
    );
  const unread = !request.readableEnded;
  if (unread) request.resume();
  return { status, text, unread };
}
