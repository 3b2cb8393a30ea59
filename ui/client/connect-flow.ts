import { ApiError } from './api-error.js';
import { pathOf } from './api-routes.js';
import type { FlowStatus, StartConnectResponse, StepHit } from './api-types.js';
import type { BuilderClient } from './builder-client.js';

/**
 * The browser's half of connecting an account by OAuth. The server holds
 * the state, the PKCE verifier and the client secret; the page only opens
 * the provider's sign-in (in this tab or a pop-up) and asks the server how
 * the flow stands. A redirect leaves the page, so the flow's id waits in
 * sessionStorage (this tab only, gone when it closes) until the page is back,
 * with the step the person had chosen, so the kit can bring the page back
 * to where it was: the same step chosen again, then the new account.
 */
const PENDING_KEY = 'toolsteps-connect-flow';
const POLL_MS = 700;
/** The longest a poll waits when the API says the token has made too many requests: a person is watching. */
const MAX_BACKOFF_MS = 30_000;

interface PendingFlow {
  flowId: string;
  integration: string;
  /** The step chosen when the sign-in left, chosen again on the way back (once: `replayed`). */
  step?: StepHit;
  replayed?: boolean;
}

let lastChoice: StepHit | undefined;

/** Remembers the step last chosen on this page (every `toolsteps-select`), for a redirect to come back to. */
export function rememberChoice(step: StepHit): void {
  lastChoice = step;
}

/** Leaves for the provider's sign-in; the page comes back at `returnTo`. */
export function followRedirect(
  started: Extract<StartConnectResponse, { flowId: string }>,
  integration: string,
): void {
  const step = lastChoice?.integration === integration ? lastChoice : undefined;
  const pending: PendingFlow = { flowId: started.flowId, integration, ...(step ? { step } : {}) };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(started.authorizeUrl);
}

function readPending(): PendingFlow | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as PendingFlow;
  } catch {
    sessionStorage.removeItem(PENDING_KEY);
    return undefined;
  }
}

/**
 * The step to choose again, once, when the page has just come back from a
 * redirect sign-in this tab started (the callback's `toolsteps_flow` names
 * it): the search fires `toolsteps-select` for it, so the host shows the
 * step and its account picker as before, and the picker finishes the flow.
 */
export function returnedChoice(): StepHit | undefined {
  const pending = readPending();
  if (!pending?.step || pending.replayed) return undefined;
  if (new URL(location.href).searchParams.get('toolsteps_flow') !== pending.flowId) return undefined;
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ ...pending, replayed: true }));
  return pending.step;
}

/** What the API's callback adds to `returnTo`: which flow came back, and how it went. */
const RETURN_PARAMS = ['toolsteps_flow', 'toolsteps_connect'];

/**
 * The redirect flow this tab started for `integration`, if the page has just
 * come back from it. Only a flow this tab started counts (a link carrying
 * some other flow id is ignored); the callback's parameters leave the address.
 */
export function takePendingFlow(integration: string): string | undefined {
  const pending = readPending();
  if (pending?.integration !== integration) return undefined;
  sessionStorage.removeItem(PENDING_KEY);
  const url = new URL(location.href);
  if (RETURN_PARAMS.some((name) => url.searchParams.has(name))) {
    for (const name of RETURN_PARAMS) url.searchParams.delete(name);
    history.replaceState(history.state, '', url.toString());
  }
  return pending.flowId;
}

/**
 * A window for the sign-in, opened while the click that asked for it is
 * still running (browsers block a pop-up opened later, after an await).
 */
export function openSignInWindow(): Window | null {
  return window.open('about:blank', 'toolsteps-sign-in', 'popup,width=520,height=680');
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks how the flow stands until it is settled, or until `signal` stops it. */
export async function settledFlow(
  client: BuilderClient,
  flowId: string,
  signal: AbortSignal,
  popup?: Window | null,
): Promise<FlowStatus> {
  let closedChecks = 0;
  for (;;) {
    let status: FlowStatus;
    try {
      status = await client.get<FlowStatus>(pathOf('connectFlowStatus', { flowId }), {}, signal);
    } catch (error) {
      // A sign-in can outlast the token's requests for the minute; the flow is still pending at the server, so wait and ask again.
      if (!(error instanceof ApiError) || error.status !== 429) throw error;
      await wait(Math.min(Math.max(error.retryAfterMs ?? POLL_MS, POLL_MS), MAX_BACKOFF_MS));
      if (signal.aborted) throw new DOMException('stopped', 'AbortError');
      continue;
    }
    if (status.state !== 'pending') return status;
    // A pop-up closed by hand: look twice more (the callback may have landed as it closed), then stop.
    if (popup?.closed && ++closedChecks > 2) {
      return {
        ...status,
        state: 'failed',
        error: { code: 'closed', message: 'The sign-in window was closed.' },
      };
    }
    await wait(POLL_MS);
    if (signal.aborted) throw new DOMException('stopped', 'AbortError');
  }
}
