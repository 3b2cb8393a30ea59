import { HOOKS_PATH_PREFIX } from '../../model/subscription.js';
import {
  type AttributeValue,
  inSpan,
  instruments,
  markFailed,
  otelApiIfLoaded,
  type SafeAttributes,
  safeAttributes,
  setSafeAttributes,
  telemetryRegistered,
} from '../../telemetry/index.js';
import type { IntakeRefusal } from './intake-refusal.js';

/** Which delivery a log line or skip notice is about; ids only, never the payload. */
export interface DeliveryContext {
  tenant?: string;
  subscription?: string;
  event_id?: string;
}

/** What became of one delivery, as its span and the deliveries metric tell it. */
export type DeliveryDecision = 'started' | 'duplicate' | 'skipped' | 'refused';

/** What the stages learn of a delivery as they run: filled in by them, read once it is answered. */
export interface DeliveryFacts {
  context: DeliveryContext;
  trigger?: string;
  /** True once the signature held; false when it was checked and failed. */
  verified?: boolean;
  decision?: DeliveryDecision;
  /** Why it was refused: the refusal's code (`bad_signature`, `in_flight`...). */
  reason?: string;
  status?: number;
}

/** The route template of a hook path: which of the two forms it has, never its ids. */
function routeOf(path: string): string | undefined {
  const pathname = path.split('?', 1)[0] ?? '';
  if (!pathname.startsWith(HOOKS_PATH_PREFIX)) return undefined;
  const segments = pathname.slice(HOOKS_PATH_PREFIX.length).split('/').length;
  if (segments === 1) return `${HOOKS_PATH_PREFIX}{subscription}`;
  return segments === 2 ? `${HOOKS_PATH_PREFIX}{tenant}/{subscription}` : undefined;
}

/** The refusals that are about the signature: the delivery was checked and did not verify. */
const SIGNATURE_REFUSALS = new Set(['bad_signature', 'no_signing_secret']);

/** Notes an answer that started or skipped the event; returns it. */
export function noteAnswer<T extends { status: number; body: Record<string, unknown> }>(
  facts: DeliveryFacts,
  answer: T,
): T {
  facts.status = answer.status;
  if (answer.body.status === 'started' || answer.body.status === 'skipped')
    facts.decision = answer.body.status;
  return answer;
}

/**
 * Notes a refusal: a duplicate is its own decision, every other refusal is
 * `refused` with its code as the reason. Returns it.
 */
export function noteRefusal(facts: DeliveryFacts, refusal: IntakeRefusal): IntakeRefusal {
  facts.status = refusal.status;
  if (SIGNATURE_REFUSALS.has(refusal.code)) facts.verified = false;
  if (refusal.code === 'duplicate') facts.decision = 'duplicate';
  else {
    facts.decision = 'refused';
    facts.reason = refusal.code;
  }
  return refusal;
}

function verification(verified: boolean | undefined): string | undefined {
  if (verified === undefined) return undefined;
  return verified ? 'passed' : 'failed';
}

/** The attributes the deliveries metric counts by: few values each, no ids but the trigger's. */
function metricAttributes(facts: DeliveryFacts): Record<string, AttributeValue> {
  return safeAttributes({
    'toolsteps.trigger.id': facts.trigger,
    'toolsteps.webhook.decision': facts.decision,
    'toolsteps.webhook.reason': facts.reason,
  });
}

/**
 * Runs one delivery in a SERVER span named by its route (`POST
 * /hooks/{subscription}`), with what an operator asks of it: tenant,
 * subscription, trigger, whether the signature held, the dedupe decision
 * (started, duplicate, skipped, refused) and the refusal's code; then counts
 * it in `toolsteps.webhook.deliveries`. The span starts a trace of its own:
 * a `traceparent` the sender put on the request is only linked, since a
 * delivery comes from outside and its ids are the sender's to choose. The
 * hand-over runs inside the span, so what it starts (the queue, the
 * forward, the command) joins the trace. With no SDK registered it only runs.
 */
export async function tracedDelivery<T>(
  method: string,
  path: string,
  headers: Headers,
  run: (facts: DeliveryFacts) => Promise<T>,
): Promise<T> {
  const facts: DeliveryFacts = { context: {} };
  if (!telemetryRegistered()) return run(facts);
  const route = routeOf(path);
  const traceparent = headers.get('traceparent');
  const answer = await inSpan(
    route ? `${method} ${route}` : method,
    {
      kind: 'server',
      attributes: { 'http.request.method': method, 'http.route': route },
      links: traceparent ? [{ traceparent }] : undefined,
    },
    async (span) => {
      const result = await run(facts);
      if (span) {
        const attributes: SafeAttributes = {
          'http.response.status_code': facts.status,
          'toolsteps.tenant.id': facts.context.tenant,
          'toolsteps.subscription.id': facts.context.subscription,
          'toolsteps.trigger.id': facts.trigger,
          'toolsteps.webhook.verification': verification(facts.verified),
          'toolsteps.webhook.decision': facts.decision,
          'toolsteps.webhook.reason': facts.reason,
        };
        setSafeAttributes(span, attributes);
        const api = otelApiIfLoaded();
        // A server span is an error only when the server failed (5xx), not when it refused the sender.
        if (api && (facts.status ?? 500) >= 500)
          markFailed(api, span, { code: facts.reason ?? 'internal_error' });
      }
      return result;
    },
  );
  instruments()?.webhookDeliveries.add(1, metricAttributes(facts));
  return answer;
}
