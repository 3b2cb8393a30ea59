/**
 * The sandbox delivers webhooks only to this machine: an emulator must never
 * become a way to make requests to other hosts, whatever a test or a step
 * registers. Answers the parsed URL, or why it is refused.
 */
export function loopbackUrl(value: unknown): URL | string {
  if (typeof value !== 'string' || value === '') return 'must be a URL';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials';
  if (!isLoopbackHost(url.hostname)) {
    return `must point at this machine (127.0.0.1, ::1 or localhost): the sandbox delivers nowhere else, got host "${url.hostname}"`;
  }
  return url;
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // 127.0.0.0/8 in dotted decimal only: the URL parser has already normalised other spellings.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
