import * as z from 'zod';
import { endpointProblem, guardHeaders } from '../http/request-guards.js';
import type { HttpMethod, Integration } from '../model/define-integration.js';
import { UPLOAD_FIELDS } from './api-call-upload.js';

const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

/** The spec names the path field `endpoint` for T, A and C and `path` for D. */
export type ApiCallPathField = 'endpoint' | 'path';

/** How an integration's generic API Call step is shaped: the path field's name, custom headers, raw uploads. */
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

/** The input schema: method, path (checked by the endpoint guard), body, and custom headers or uploads where allowed. */
export function apiCallInput<
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
  const withUploads = withoutHeaders.extend(UPLOAD_FIELDS());
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
export type ApiCallInput<
  PathField extends ApiCallPathField,
  CustomHeaders extends boolean,
  Uploads extends boolean = false,
> = Extract<ReturnType<typeof apiCallInput<PathField, CustomHeaders, Uploads>>, z.ZodType>;
