import type { DoctorCheck } from './doctor-check.js';

/** The variables the transport's EnvHttpProxyAgent reads (src/http/dispatcher-wire.ts), both spellings. */
const VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;

/** A proxy URL may carry a user and password: those are never printed. */
function withoutCredentials(value: string): string {
  try {
    const url = new URL(value);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '';
    }
    return url.href.replace(/\/$/, '');
  } catch {
    return value.includes('@') ? '(set; not shown: it looks like it holds credentials)' : value;
  }
}

/** Which proxy settings requests will follow; loopback (the sandbox) always bypasses them. */
export function checkProxySettings(env: NodeJS.ProcessEnv = process.env): DoctorCheck {
  const set = VARIABLES.filter((name) => env[name]);
  const proxied = set.some((name) => !/^no_proxy$/i.test(name));
  return {
    name: 'proxy',
    status: 'info',
    summary: proxied
      ? 'requests go through the proxy below (loopback, the sandbox, never does)'
      : 'no proxy: requests go straight to the providers',
    details: set.map((name) =>
      /^no_proxy$/i.test(name) ? `${name}=${env[name]}` : `${name}=${withoutCredentials(env[name] ?? '')}`,
    ),
  };
}
