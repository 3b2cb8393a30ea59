import { z } from 'zod';
import { endpointProblem, guardEndpoint, guardHeaders } from './http/endpoint-guard.js';
import type { HttpMethod, Integration } from './integration.js';
import { defineStep, type Step } from './step.js';

const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);
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
> {
  pathField: PathField;
  /** Whether callers may add their own request headers (D only). */
  customHeaders: CustomHeaders;
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
  body: z.unknown().describe('Parsed JSON body, text, or null when empty.'),
  redirected: z
    .boolean()
    .describe('True when the provider redirected the request: the answer comes from where it pointed.'),
});

/** The input schema: method, path (checked by the endpoint guard), body, and custom headers where allowed. */
function apiCallInput<PathField extends ApiCallPathField, CustomHeaders extends boolean>(
  integration: Integration,
  options: ApiCallOptions<PathField, CustomHeaders>,
) {
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
  const input = options.customHeaders
    ? withHeaders.superRefine(bodyOnlyWithBodyMethods)
    : withoutHeaders.superRefine(bodyOnlyWithBodyMethods);
  // The ternary is decided by `options.customHeaders`, whose literal type is CustomHeaders.
  return input as CustomHeaders extends true ? typeof withHeaders : typeof withoutHeaders;
}

function bodyOnlyWithBodyMethods(value: unknown, context: z.RefinementCtx): void {
  const { method, body } = value as { method: HttpMethod; body?: unknown };
  if (body !== undefined && !BODY_METHODS.has(method)) {
    context.addIssue({
      code: 'custom',
      path: ['body'],
      message: `a body is sent only with POST, PUT or PATCH, not ${method}`,
    });
  }
}

/** The input schema's type, once the path field and `customHeaders` are known (Extract keeps it a zod type). */
type ApiCallInput<PathField extends ApiCallPathField, CustomHeaders extends boolean> = Extract<
  ReturnType<typeof apiCallInput<PathField, CustomHeaders>>,
  z.ZodType
>;

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
>(
  integration: Owner,
  options: ApiCallOptions<PathField, CustomHeaders>,
): Step<ApiCallInput<PathField, CustomHeaders>, typeof ApiCallOutput, Owner, `${Owner['id']}.api_call`> {
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
      const response = await context.http.request({
        method,
        path,
        headers,
        ...(record.body === undefined ? {} : { body: record.body }),
        // A PUT is idempotent by HTTP, but providers hide side effects in bodies (a ticket
        // update that adds a comment): a call with a body is not replayed after an ambiguous failure.
        ...(record.body === undefined ? {} : { idempotent: false }),
      });
      return {
        status: response.status,
        headers: exposedHeaders(response.headers),
        body: response.body ?? null,
        redirected: response.redirected ?? false,
      };
    },
  });
  // Inside this generic function TS cannot resolve the input's type (it depends on PathField and
  // CustomHeaders); each caller's instantiation can, so the step is typed here for them.
  return step as unknown as Step<
    ApiCallInput<PathField, CustomHeaders>,
    typeof ApiCallOutput,
    Owner,
    `${Owner['id']}.api_call`
  >;
}
