// What a caller may put into a request: an API call's endpoint and headers, one path segment,
// a numeric id; and the path a server routes an endpoint to, for pricing.
import * as z from 'zod';
import { type FieldIssue, InputError } from '../errors/index.js';
import { builtOnce } from '../values/built-once.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Every C0 control character and DEL: URL parsers silently drop TAB, so `.\t.` would become `..`. */
const CONTROL = /[\u0000-\u001f\u007f]/;
/** What header values may not hold: TAB is legal there, CR, LF and NUL split or end a header. */
const HEADER_VALUE_CONTROL = /[\r\n\0]/;
/** How many rounds of %-decoding are checked: a value encoded twice (`%252e`) is still caught. */
const MAX_DECODE_ROUNDS = 3;
/**
 * Whitespace around an endpoint is a typo or a trick: fetch would encode
 * `" //evil.example"` as `/%20//evil.example`, a path no one meant.
 */
const SURROUNDING_SPACE = /^\s|\s$/u;

function refuse(field: string, reason: string): never {
  throw new InputError(
    `Refused ${field}: ${reason}. Give a path under the connection's base URL, such as /api/v2/tickets.json.`,
    [{ path: field, message: reason }],
  );
}

/**
 * The forms of `value` an intermediary might see: as given and after up to
 * three rounds of percent-decoding, so `%2e%2e` and `%252e%252e` are caught
 * as surely as `..`.
 */
function decodedForms(value: string, field: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      refuse(field, 'it has a malformed percent-encoding');
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

/** Why an endpoint is refused, or undefined when it is a safe path. */
export function endpointProblem(endpoint: string): string | undefined {
  try {
    guardEndpoint(endpoint);
    return undefined;
  } catch (error) {
    return error instanceof InputError ? (error.fields[0]?.message ?? error.message) : String(error);
  }
}

/**
 * Checks an API Call endpoint and returns it as a path starting with `/`.
 * The endpoint can only ever name a resource under the connection's base
 * URL: the credentials attached to the request must not travel elsewhere.
 */
export function guardEndpoint(endpoint: string, field = 'endpoint'): string {
  if (typeof endpoint !== 'string' || endpoint.trim() === '') refuse(field, 'it is empty');
  for (const form of decodedForms(endpoint, field)) {
    if (CONTROL.test(form)) refuse(field, 'it contains a control character (CR, LF, TAB, NUL, ...)');
    if (SURROUNDING_SPACE.test(form)) refuse(field, 'it starts or ends with whitespace');
    if (form.includes('\\')) refuse(field, 'it contains a backslash');
    if (SCHEME.test(form)) refuse(field, 'absolute URLs are not allowed');
    if (form.startsWith('//')) refuse(field, 'protocol-relative URLs are not allowed');
    const pathPart = form.split(/[?#]/, 1)[0] ?? '';
    const firstSlash = pathPart.indexOf('/');
    const beforeSlash = firstSlash === -1 ? pathPart : pathPart.slice(0, firstSlash);
    if (beforeSlash.includes('@')) refuse(field, 'a user-info "@" before the first "/" is not allowed');
    if (pathPart.split('/').some((segment) => segment === '..' || segment === '.')) {
      refuse(field, 'it contains a "." or ".." segment');
    }
  }
  if (endpoint.includes('#')) refuse(field, 'a fragment ("#") is not allowed');
  return endpoint.startsWith('/') ? endpoint : `/${endpoint}`;
}

/**
 * Headers a caller may never set: they carry credentials, or steer the
 * connection and framing the transport owns (the hop-by-hop headers of
 * RFC 9110 §7.6.1, `Expect`, `HTTP2-Settings`).
 */
const RESERVED_HEADERS = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'upgrade',
  'trailer',
  'expect',
  'http2-settings',
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks caller-supplied headers; `credentialHeaders` adds the integration's own key headers. */
export function guardHeaders(
  headers: Record<string, string> | undefined,
  credentialHeaders: readonly string[] = [],
  field = 'headers',
): Record<string, string> {
  if (!headers) return {};
  const issues: FieldIssue[] = [];
  const reserved = new Set([...RESERVED_HEADERS, ...credentialHeaders.map((name) => name.toLowerCase())]);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      issues.push({ path: `${field}.${name}`, message: 'not a valid header name' });
    else if (reserved.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) {
      issues.push({
        path: `${field}.${name}`,
        message: 'this header is set by toolsteps and cannot be overridden',
      });
    } else if (typeof value !== 'string' || HEADER_VALUE_CONTROL.test(value)) {
      issues.push({ path: `${field}.${name}`, message: 'header values may not contain CR, LF or NUL' });
    } else result[name] = value;
  }
  if (issues.length)
    throw new InputError(
      `Refused ${field}: ${issues.map((issue) => `${issue.path} (${issue.message})`).join('; ')}.`,
      issues,
    );
  return result;
}

/**
 * The path a server will route an endpoint to, for pricing paid calls: the
 * query is dropped, percent-escapes decoded (`/enrich/%70erson` is
 * `/enrich/person` to most servers), dot segments resolved, repeated and
 * trailing slashes dropped and case folded, so no spelling of a paid path
 * can be priced as another, cheaper one.
 */
export function routedPath(endpoint: string): string {
  let path = new URL(endpoint.startsWith('/') ? endpoint : `/${endpoint}`, 'http://x').pathname;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** A value that, once in a URL path, would leave its segment: separators and control characters. */
const LEAVES_SEGMENT = /[/\\\u0000-\u001f\u007f]/;
const DOT_SEGMENT = /^\.{1,2}$/;

/**
 * Why `value` cannot be one URL path segment, or undefined when it can. The
 * value is checked as given and after each round of %-decoding, because a
 * provider or proxy that decodes `%2e%2e` or `%2F` would see `..` or `/`.
 */
export function pathSegmentProblem(value: string): string | undefined {
  let form = value;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round += 1) {
    if (form === '') return 'cannot be empty';
    if (DOT_SEGMENT.test(form)) return 'cannot be "." or ".." (they name another path)';
    if (LEAVES_SEGMENT.test(form)) return 'cannot contain "/", "\\" or control characters';
    if (!/%[0-9a-f]{2}/i.test(form)) return undefined;
    try {
      form = decodeURIComponent(form);
    } catch {
      return 'contains a malformed %-escape';
    }
  }
  return 'is %-encoded too many times';
}

/**
 * One URL path segment: an id that a step puts into a provider path. It can
 * never become two segments, none, or a step up (`..`), whatever escapes it
 * holds. Extend it with `.regex()` for a provider's own id format.
 *
 * A function that builds the schema on its first call and returns that same
 * schema after (`builtOnce`), read in a getter as `PathSegment().describe(...)`:
 * importing a catalogue builds no schema (issue 37).
 */
export const PathSegment = builtOnce(() =>
  z.string().superRefine((value, context) => {
    const problem = pathSegmentProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
);

const NUMERIC_ID_MESSAGE = 'must be a positive whole number, such as 42 or "42"';

/**
 * A numeric id: a positive integer, or a string of decimal digits only (as
 * ids arrive from CLIs, forms and templates). Nothing else is coerced:
 * `true`, `"0x10"`, `[5]`, `"1e3"`, `" 7"` and `"4.0"` are refused, so a
 * slip can never address ticket 1 or 16. Built on first call, as `PathSegment`.
 */
export const NumericId = builtOnce(() =>
  z
    .union(
      [
        z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
        // Digits only, not all zeros; 15 digits stay below 2^53, so the number is exact.
        z
          .string()
          .regex(/^(?!0+$)[0-9]{1,15}$/)
          .transform(Number),
      ],
      { error: NUMERIC_ID_MESSAGE },
    )
    .describe('A positive whole number.'),
);
