import { randomBytes } from 'node:crypto';
import { OTHER_BROWSER, type SignInFlow } from './oauth-flows.js';

/** JSON safe inside a script element: no `<` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The callback's answer to the browser: a status, its headers, and a page or nothing. */
export interface CallbackAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function page(status: number, title: string, script = ''): CallbackAnswer {
  const nonce = randomBytes(16).toString('base64');
  const tag = script ? `<script nonce="${nonce}">${script}</script>` : '';
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
    body: `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p>${escapeHtml(title)}</p>${tag}`,
  };
}

/**
 * How the OAuth callback answers the browser. Redirect: back to the page's
 * `returnTo`, saying which flow and how it went (never a token). Pop-up: a
 * page that tells its opener, only at the origin that started the flow, and
 * closes. A state that finds no flow: a page saying so, nothing else. A
 * browser that did not start the flow: a page saying so, and neither a
 * redirect nor a message to any opener (it may be a stranger's browser).
 */
export function answerCallback(flow: SignInFlow | undefined): CallbackAnswer {
  if (!flow) return page(400, 'This sign-in link is no longer valid. Start connecting again.');
  if (flow.error?.code === OTHER_BROWSER) {
    return page(
      400,
      'Not connected: this sign-in was not started in this browser. Restart the sign-in from the page that started it.',
    );
  }
  const outcome = flow.state === 'connected' ? 'connected' : 'failed';
  const title =
    outcome === 'connected'
      ? 'Connected. You can close this window.'
      : `Not connected: ${flow.error?.message ?? flow.state}`;
  if (flow.kind === 'redirect' && flow.returnTo) {
    const back = new URL(flow.returnTo);
    back.searchParams.set('toolsteps_flow', flow.flowId);
    back.searchParams.set('toolsteps_connect', outcome);
    return {
      status: 303,
      headers: { location: back.toString(), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      body: '',
    };
  }
  if (flow.kind === 'popup' && flow.origin) {
    const message = { source: 'toolsteps', flowId: flow.flowId, state: outcome };
    return page(
      200,
      title,
      `if (window.opener) window.opener.postMessage(${scriptJson(message)}, ${scriptJson(flow.origin)}); window.close();`,
    );
  }
  return page(outcome === 'connected' ? 200 : 400, title);
}
