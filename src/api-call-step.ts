import { z } from 'zod';
import { endpointProblem, guardEndpoint, guardHeaders } from './http/endpoint-guard.js';
import type { HttpMethod, Integration } from './integration.js';
import { defineStep, type Step } from './step.js';

const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);
/** Response headers worth mapping; the rest stay out of outputs and logs. */
const EXPOSED_RESPONSE_HEADERS = ['content-type', 'location', 'etag', 'retry-after'];

export interface ApiCallOptions {
  /** The spec names the path field `endpoint` for T, A and C and `path` for D. */
  pathField: 'endpoint' | 'path';
  /** Whether callers may add their own request headers (D only). */
  customHeaders: boolean;
  title: string;
  keywords: readonly string[];
  examplePath: string;
}

const ApiCallOutput = z.object({
  status: z.number().int().describe('HTTP status of the provider response.'),
  headers: z
    .record(z.string(), z.string())
    .describe('Selected response headers (content-type, location, etag, retry-after).'),
  body: z.unknown().describe('Parsed JSON body, text, or null when empty.'),
  redirected: z
    .boolean()
    .describe('True when the provider redirected the request: the answer comes from where it pointed.'),
});

/** The input schema: method, path (checked by the endpoint guard), body, and custom headers where allowed. */
function apiCallInput(integration: Integration, options: ApiCallOptions) {
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
  const shape = {
    method: z.enum(methods).describe(`HTTP method: ${methods.join(', ')}.`),
    [options.pathField]: pathSchema,
    body: z
      .json()
      .optional()
      .describe(
        `JSON request body${methods.some((m) => !BODY_METHODS.has(m)) ? ', for POST, PUT and PATCH only' : ''}.`,
      ),
    ...(options.customHeaders
      ? {
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
        }
      : {}),
  };
  const input = z.strictObject(shape).superRefine((value, context) => {
    const method = value.method as HttpMethod;
    if (value.body !== undefined && !BODY_METHODS.has(method)) {
      context.addIssue({
        code: 'custom',
        path: ['body'],
        message: `a body is sent only with POST, PUT or PATCH, not ${method}`,
      });
    }
  });
  return input;
}

/**
 * The generic API Call step of an integration: any endpoint under the
 * connection's base URL, with the connection's authorization attached.
 * Every safety rule is checked in the input schema, so a refused call
 * sends nothing.
 */
export function defineApiCallStep<Owner extends Integration>(
  integration: Owner,
  options: ApiCallOptions,
): Step<z.ZodType, z.ZodType, Owner> {
  const methods = integration.apiCall.methods;
  return defineStep({
    id: `${integration.id as Owner['id']}.api_call`,
    integration,
    title: options.title,
    description: `Send a request to any ${integration.title} API endpoint using the selected connection's authorization.`,
    agentDescription: `Use only when no dedicated ${integration.id} step fits. Allowed methods: ${methods.join(', ')}. The ${options.pathField} must be a path such as ${options.examplePath}; authorization is attached automatically, never send credentials yourself. Calls with a body are not retried after a failure that may have reached the provider. DELETE is permanent.`,
    keywords: options.keywords,
    input: apiCallInput(integration, options),
    output: ApiCallOutput,
    // Any step that can DELETE can destroy: embedders that gate destructive steps must see it.
    access: methods.includes('DELETE') ? 'destructive' : 'write',
    idempotent: false,
    variables: { status: '$.status', body: '$.body' },
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
      const exposed: Record<string, string> = {};
      for (const name of EXPOSED_RESPONSE_HEADERS) {
        const headerValue = response.headers.get(name);
        if (headerValue !== null) exposed[name] = headerValue;
      }
      return {
        status: response.status,
        headers: exposed,
        body: response.body ?? null,
        redirected: response.redirected ?? false,
      };
    },
  });
}
