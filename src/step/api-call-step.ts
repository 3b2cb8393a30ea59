import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { InputError } from '../errors/index.js';
import { endpointProblem, guardEndpoint, guardHeaders } from '../http/endpoint-guard.js';
import type { HttpMethod, Integration } from './define-integration.js';
import { defineStep, type Step } from './define-step.js';

const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);
/** The ticketing provider takes attachments up to 50 MB; a file is held in memory whole, so the cap applies to every upload. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const MAX_UPLOAD_BASE64 = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;

interface UploadInput {
  body_base64?: string;
  body_file?: string;
  content_type?: string;
}

/**
 * The raw body of an upload: the base64 given, or the file read from disk
 * (a regular file of at most 50 MiB; anything else is refused before a
 * byte is sent).
 */
async function uploadBody(
  input: UploadInput,
): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  const contentType = input.content_type ?? 'application/octet-stream';
  if (input.body_base64 !== undefined)
    return { bytes: Buffer.from(input.body_base64, 'base64'), contentType };
  if (input.body_file === undefined) return undefined;
  const refuse = (message: string, cause?: unknown) =>
    new InputError(
      `body_file "${input.body_file}" ${message}; nothing was sent.`,
      [{ path: 'body_file', message }],
      {
        cause,
      },
    );
  const info = await stat(input.body_file).catch((error: unknown) => {
    throw refuse('cannot be read', error);
  });
  if (!info.isFile()) throw refuse('is not a regular file');
  if (info.size > MAX_UPLOAD_BYTES) throw refuse(`is larger than ${MAX_UPLOAD_BYTES} bytes`);
  return { bytes: await readFile(input.body_file), contentType };
}

/** A binary answer (a file) as base64 with its media type; JSON and text as read. */
function answerBody(body: unknown, headers: Headers): unknown {
  if (!(body instanceof Uint8Array)) return body ?? null;
  return {
    base64: Buffer.from(body).toString('base64'),
    content_type: headers.get('content-type') ?? 'application/octet-stream',
    bytes: body.byteLength,
  };
}
/** Response headers worth mapping; the rest stay out of outputs and logs. */
const EXPOSED_RESPONSE_HEADERS = ['content-type', 'location', 'etag', 'retry-after'];
/**
 * Rate-limit status, which providers report in headers (the spec: "the
 * current rate limit status can be read in API response headers"), under
 * every naming in use: `X-Rate-Limit-*`, `X-RateLimit-*`, `RateLimit-*`,
 * `RateLimit` / `RateLimit-Policy` (IETF draft), `x-*-requests-left`.
 */
const RATE_LIMIT_HEADER = /^(x-)?rate-?limit(-|$)|^x-[a-z]+-requests-left$/;
/** A provider could send many or long ones: only this many, this long, reach the output. */
const MAX_RATE_LIMIT_HEADERS = 16;
const MAX_HEADER_VALUE = 200;

/** The headers an API Call answer shows: the fixed few, then the rate-limit ones, capped. */
function exposedHeaders(headers: Headers): Record<string, string> {
  const exposed: Record<string, string> = {};
  for (const name of EXPOSED_RESPONSE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) exposed[name] = value.slice(0, MAX_HEADER_VALUE);
  }
  let rateLimitHeaders = 0;
  headers.forEach((value, name) => {
    if (!RATE_LIMIT_HEADER.test(name) || rateLimitHeaders >= MAX_RATE_LIMIT_HEADERS) return;
    exposed[name] = value.slice(0, MAX_HEADER_VALUE);
    rateLimitHeaders += 1;
  });
  return exposed;
}

/** The spec names the path field `endpoint` for T, A and C and `path` for D. */
export type ApiCallPathField = 'endpoint' | 'path';

export interface ApiCallOptions<
  PathField extends ApiCallPathField = ApiCallPathField,
  CustomHeaders extends boolean = boolean,
  Uploads extends boolean = false,
> {
  pathField: PathField;
  /** Whether callers may add their own request headers (D only). */
  customHeaders: CustomHeaders;
  /** Whether the step sends files as raw bytes (`body_base64`, `body_file`, `content_type`): T's attachments. */
  uploads?: Uploads;
  title: string;
  keywords: readonly string[];
  examplePath: string;
}

const ApiCallOutput = z.object({
  status: z.number().int().describe('HTTP status of the provider response.'),
  headers: z
    .record(z.string(), z.string())
    .describe(
      'Selected response headers (content-type, location, etag, retry-after) and the rate-limit status headers (X-Rate-Limit-*, X-RateLimit-*, RateLimit-*, x-*-requests-left), names in lower case.',
    ),
  body: z
    .unknown()
    .describe(
      'Parsed JSON body, text, or null when empty. A binary answer (a file) is {base64, content_type, bytes}.',
    ),
  redirected: z
    .boolean()
    .describe('True when the provider redirected the request: the answer comes from where it pointed.'),
});

/** The fields of a file sent as raw bytes, e.g. `POST /api/v2/uploads.json?filename=report.pdf`. */
const UPLOAD_FIELDS = {
  body_base64: z
    .base64()
    .max(MAX_UPLOAD_BASE64)
    .optional()
    .describe('The file to send as the raw request body, base64-encoded (instead of body or body_file).'),
  body_file: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe(
      'Path of a local file to send as the raw request body (instead of body or body_base64); read by the process running the step, at most 50 MiB.',
    ),
  content_type: z
    .string()
    .regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'a media type such as image/png')
    .max(100)
    .optional()
    .describe(
      'Media type of the file, e.g. image/png or application/pdf; required with body_base64 or body_file.',
    ),
};

/** The input schema: method, path (checked by the endpoint guard), body, and custom headers or uploads where allowed. */
function apiCallInput<
  PathField extends ApiCallPathField,
  CustomHeaders extends boolean,
  Uploads extends boolean,
>(integration: Integration, options: ApiCallOptions<PathField, CustomHeaders, Uploads>) {
  const methods = integration.apiCall.methods as [HttpMethod, ...HttpMethod[]];
  const pathSchema = z
    .string()
    .min(1)
    .superRefine((value, context) => {
      const problem = endpointProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      `Path of the provider API under the connection's base URL, with an optional query string, e.g. ${options.examplePath}. Absolute URLs, "..", backslashes and control characters are refused.`,
    );
  const withoutHeaders = z.strictObject({
    method: z.enum(methods).describe(`HTTP method: ${methods.join(', ')}.`),
    // A computed key is typed as any string; the cast names the one field it is.
    ...({ [options.pathField]: pathSchema } as Record<PathField, typeof pathSchema>),
    body: z
      .json()
      .optional()
      .describe(
        `JSON request body${methods.some((m) => !BODY_METHODS.has(m)) ? ', for POST, PUT and PATCH only' : ''}.`,
      ),
  });
  const withHeaders = withoutHeaders.extend({
    headers: z
      .record(z.string(), z.string())
      .optional()
      .superRefine((value, context) => {
        try {
          guardHeaders(value, integration.credentialHeaders ?? []);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
        }
      })
      .describe(
        'Extra request headers. Authorization, Cookie, Host, Content-Length and Proxy-* are refused.',
      ),
  });
  const withUploads = withoutHeaders.extend(UPLOAD_FIELDS);
  const input = options.customHeaders
    ? withHeaders.superRefine(bodyOnlyWithBodyMethods)
    : options.uploads
      ? withUploads.superRefine(bodyOnlyWithBodyMethods).superRefine(oneBodyWithItsType)
      : withoutHeaders.superRefine(bodyOnlyWithBodyMethods);
  // The ternary is decided by `options.customHeaders` and `options.uploads`, whose literal types are the generics.
  return input as CustomHeaders extends true
    ? typeof withHeaders
    : Uploads extends true
      ? typeof withUploads
      : typeof withoutHeaders;
}

/** At most one of body, body_base64 and body_file; a file needs its media type. */
function oneBodyWithItsType(value: unknown, context: z.RefinementCtx): void {
  const record = value as { body?: unknown; body_base64?: string; body_file?: string; content_type?: string };
  const given = (['body', 'body_base64', 'body_file'] as const).filter((name) => record[name] !== undefined);
  if (given.length > 1) {
    context.addIssue({ code: 'custom', path: [given[1]!], message: `give one of ${given.join(' and ')}` });
  }
  const file = record.body_base64 !== undefined || record.body_file !== undefined;
  if (file && !record.content_type) {
    context.addIssue({
      code: 'custom',
      path: ['content_type'],
      message: 'the media type of the file is required',
    });
  }
  if (!file && record.content_type) {
    context.addIssue({
      code: 'custom',
      path: ['content_type'],
      message: 'only with body_base64 or body_file',
    });
  }
}

function bodyOnlyWithBodyMethods(value: unknown, context: z.RefinementCtx): void {
  const record = value as { method: HttpMethod; body?: unknown; body_base64?: string; body_file?: string };
  for (const name of ['body', 'body_base64', 'body_file'] as const) {
    if (record[name] === undefined || BODY_METHODS.has(record.method)) continue;
    context.addIssue({
      code: 'custom',
      path: [name],
      message: `a body is sent only with POST, PUT or PATCH, not ${record.method}`,
    });
  }
}

/** The input schema's type, once the path field and `customHeaders` are known (Extract keeps it a zod type). */
type ApiCallInput<
  PathField extends ApiCallPathField,
  CustomHeaders extends boolean,
  Uploads extends boolean = false,
> = Extract<ReturnType<typeof apiCallInput<PathField, CustomHeaders, Uploads>>, z.ZodType>;

/**
 * The generic API Call step of an integration: any endpoint under the
 * connection's base URL, with the connection's authorization attached.
 * Every safety rule is checked in the input schema, so a refused call
 * sends nothing.
 */
export function defineApiCallStep<
  Owner extends Integration,
  const PathField extends ApiCallPathField,
  const CustomHeaders extends boolean,
  const Uploads extends boolean = false,
>(
  integration: Owner,
  options: ApiCallOptions<PathField, CustomHeaders, Uploads>,
): Step<
  ApiCallInput<PathField, CustomHeaders, Uploads>,
  typeof ApiCallOutput,
  Owner,
  `${Owner['id']}.api_call`
> {
  const methods = integration.apiCall.methods;
  const step = defineStep({
    id: `${integration.id as Owner['id']}.api_call`,
    integration,
    title: options.title,
    description: `Send a request to any ${integration.title} API endpoint using the selected connection's authorization.`,
    agentDescription: `Use only when no dedicated ${integration.id} step fits. Allowed methods: ${methods.join(', ')}. The ${options.pathField} must be a path such as ${options.examplePath}; authorization is attached automatically, never send credentials yourself. Calls with a body are not retried after a failure that may have reached the provider. DELETE is permanent.`,
    keywords: options.keywords,
    input: apiCallInput(integration, options) as z.ZodType,
    output: ApiCallOutput,
    // Any step that can DELETE can destroy: embedders that gate destructive steps must see it.
    access: methods.includes('DELETE') ? 'destructive' : 'write',
    idempotent: false,
    variables: { status: '$.status', body: '$.body' },
    examples: [
      {
        title: `GET ${options.examplePath}`,
        input: { method: 'GET', [options.pathField]: options.examplePath },
      },
    ],
    async run(value, context) {
      const record = value as Record<string, unknown>;
      const path = guardEndpoint(record[options.pathField] as string, options.pathField);
      const headers = options.customHeaders
        ? guardHeaders(
            record.headers as Record<string, string> | undefined,
            integration.credentialHeaders ?? [],
          )
        : {};
      const method = record.method as HttpMethod;
      const rawBody = await uploadBody(record as UploadInput);
      const sendsBody = record.body !== undefined || rawBody !== undefined;
      const response = await context.http.request({
        method,
        path,
        headers,
        ...(record.body === undefined ? {} : { body: record.body }),
        ...(rawBody === undefined ? {} : { rawBody }),
        // A PUT is idempotent by HTTP, but providers hide side effects in bodies (a ticket
        // update that adds a comment): a call with a body is not replayed after an ambiguous failure.
        ...(sendsBody ? { idempotent: false } : {}),
      });
      return {
        status: response.status,
        headers: exposedHeaders(response.headers),
        body: answerBody(response.body, response.headers),
        redirected: response.redirected ?? false,
      };
    },
  });
  // Inside this generic function TS cannot resolve the input's type (it depends on PathField,
  // CustomHeaders and Uploads); each caller's instantiation can, so the step is typed here for them.
  return step as unknown as Step<
    ApiCallInput<PathField, CustomHeaders, Uploads>,
    typeof ApiCallOutput,
    Owner,
    `${Owner['id']}.api_call`
  >;
}
