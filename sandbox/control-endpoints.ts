import type { IncomingHttpHeaders } from 'node:http';
import * as z from 'zod';
import type { Clock } from '../src/model/clock.js';
import type { Emulator } from './emulator.js';
import type { FaultInjector } from './fault-injector.js';
import { json, type Reply } from './sandbox-http.js';
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import type { WebhookFaults } from './webhooks/webhook-faults.js';

/**
 * The header every state-changing control request must carry. A browser
 * cannot add a custom header to a cross-origin request without a CORS
 * preflight, which the sandbox never approves, and a form post cannot send
 * JSON: so no web page the developer visits can flip a fault switch, reset
 * the emulators or move the clock.
 */
export const CONTROL_HEADER = 'x-toolsteps-sandbox';

const FaultRuleBody = z.strictObject({
  target: z.string().min(1).optional(),
  method: z.string().min(1).optional(),
  pathIncludes: z.string().optional(),
  count: z.number().int().min(1).max(10_000),
  action: z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('status'),
      status: z.number().int().min(100).max(599),
      body: z.unknown().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      when: z.enum(['before', 'after']).optional(),
    }),
    z.strictObject({ kind: z.literal('reset'), when: z.enum(['before', 'after']) }),
    z.strictObject({
      kind: z.literal('delay'),
      ms: z.number().int().min(0).max(600_000),
      dropIfAbandoned: z.boolean().optional(),
    }),
  ]),
});

const WebhookFaultBody = z.strictObject({
  kind: z.enum(['duplicate', 'delay', 'bad_signature']),
  target: z.string().min(1).optional(),
  count: z.number().int().min(1).max(10_000),
  ms: z.number().int().min(0).max(86_400_000).optional(),
});

const ClockBody = z.strictObject({
  advance_ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 86_400_000),
});

export interface ControlContext {
  emulators: Map<string, Emulator>;
  faults: FaultInjector;
  webhooks?: WebhookDispatcher | undefined;
  webhookFaults?: WebhookFaults | undefined;
  clock?: Clock | undefined;
}

/** Why a control request is refused before it is read, or undefined when it may proceed. */
export function controlRefusal(method: string, headers: IncomingHttpHeaders): Reply | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (headers[CONTROL_HEADER] !== '1') {
    return json(403, {
      error: 'control_header_required',
      message: `Sandbox control requests need the header "${CONTROL_HEADER}: 1".`,
    });
  }
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json') {
    return json(415, { error: 'json_required', message: 'Sandbox control requests take application/json.' });
  }
  return undefined;
}

function invalid(error: z.ZodError): Reply {
  return json(400, {
    error: 'invalid_control_body',
    issues: error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  });
}

function reset(context: ControlContext): Reply {
  for (const emulator of context.emulators.values()) emulator.reset();
  context.faults.clear();
  context.webhookFaults?.clear();
  context.webhooks?.reset();
  return json(200, { ok: true });
}

const TokensBody = z.strictObject({ action: z.enum(['expire', 'revoke']) });

/**
 * `/_sandbox/seed|state|tokens/<mount>`: an evaluation scenario's reach into
 * one twin (twin-control.ts). State is a GET, open like health; seeding and
 * spoiling tokens change state, so they need the control header.
 */
function handleTwin(context: ControlContext, method: string, path: string, body: unknown): Reply | undefined {
  const [, verb = '', mount = '', ...rest] = path.split('/');
  if (!['seed', 'state', 'tokens'].includes(verb) || rest.length) return undefined;
  const twin = context.emulators.get(mount)?.twin;
  if (!twin) return json(404, { error: 'no_such_twin', mount });
  if (verb === 'state' && method === 'GET') return json(200, twin.state());
  if (verb === 'seed' && method === 'POST') {
    const seed = twin.seedSchema.safeParse(body ?? {});
    if (!seed.success) return invalid(seed.error);
    try {
      twin.seed(seed.data);
    } catch (error) {
      // A seed naming what the twin lacks (a user, a group, a project): the scenario is wrong, not the sandbox.
      return json(400, {
        error: 'invalid_seed',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return json(200, { ok: true });
  }
  if (verb === 'tokens' && method === 'POST') {
    const tokens = TokensBody.safeParse(body);
    if (!tokens.success) return invalid(tokens.error);
    if (tokens.data.action === 'expire' && twin.expireTokens)
      return json(200, { ok: true, expired: twin.expireTokens() });
    if (tokens.data.action === 'revoke' && twin.revokeGrants) {
      twin.revokeGrants();
      return json(200, { ok: true });
    }
    return json(409, {
      error: 'no_tokens',
      message: `The ${mount} twin issues no tokens to ${tokens.data.action}.`,
    });
  }
  return json(405, { error: 'method_not_allowed' });
}

/**
 * `/_sandbox/*`: health (GET, open), and with the control header and a JSON
 * body: reset, faults, webhook-faults, webhooks/settle, clock (a manual
 * clock only); and each twin's seed, state and tokens (handleTwin).
 */
export async function handleControl(
  context: ControlContext,
  method: string,
  path: string,
  body: unknown,
): Promise<Reply> {
  const route = `${method} ${path}`;
  if (route === 'GET /health') return json(200, { ok: true, emulators: [...context.emulators.keys()] });
  if (route === 'POST /reset') return reset(context);
  const twin = handleTwin(context, method, path, body);
  if (twin) return twin;
  if (route === 'POST /faults') {
    const rule = FaultRuleBody.safeParse(body);
    if (!rule.success) return invalid(rule.error);
    context.faults.add(rule.data);
    return json(201, { ok: true });
  }
  if (route === 'POST /webhook-faults' && context.webhookFaults) {
    const rule = WebhookFaultBody.safeParse(body);
    if (!rule.success) return invalid(rule.error);
    context.webhookFaults.add(rule.data);
    return json(201, { ok: true });
  }
  if (route === 'POST /webhooks/settle' && context.webhooks) {
    await context.webhooks.settle();
    return json(200, { ok: true, pending: context.webhooks.pending().length });
  }
  if (route === 'POST /clock') {
    const clock = context.clock as (Clock & { advance?: (ms: number) => void }) | undefined;
    if (typeof clock?.advance !== 'function') {
      return json(409, { error: 'clock_not_manual', message: 'This sandbox runs on the system clock.' });
    }
    const step = ClockBody.safeParse(body);
    if (!step.success) return invalid(step.error);
    clock.advance(step.data.advance_ms);
    return json(200, { ok: true, now: clock.now() });
  }
  return json(404, { error: 'unknown_control_endpoint' });
}
