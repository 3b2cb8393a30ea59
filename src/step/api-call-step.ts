import type * as z from 'zod';
import { guardEndpoint, guardHeaders } from '../http/request-guards.js';
import type { HttpMethod, Integration } from '../model/define-integration.js';
import {
  type ApiCallInput,
  type ApiCallOptions,
  type ApiCallPathField,
  apiCallInput,
} from './api-call-input.js';
import { ApiCallOutput, answerBody, exposedHeaders } from './api-call-output.js';
import { type UploadInput, uploadBody } from './api-call-upload.js';
import { defineStep, type Step } from './define-step.js';

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
  ReturnType<typeof ApiCallOutput>,
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
    get input() {
      return apiCallInput(integration, options) as z.ZodType;
    },
    get output() {
      return ApiCallOutput();
    },
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
    ReturnType<typeof ApiCallOutput>,
    Owner,
    `${Owner['id']}.api_call`
  >;
}
