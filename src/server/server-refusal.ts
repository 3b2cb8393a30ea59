/** Why the plumbing refused a request, before any route of ours ran or from the readers it lends them. */
export type ServerRefusalCode =
  | 'bad_request_target'
  | 'route_not_found'
  | 'body_too_large'
  | 'body_timeout'
  | 'unsupported_media_type'
  | 'invalid_json'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'unauthorized';

/**
 * A refusal of the shared plumbing, with the HTTP status it stands for.
 * Each server answers it in its own words (the builder's error body, a
 * JSON-RPC error, the intake's status): the code says what happened, the
 * server says it to its callers.
 */
export class ServerRefusal extends Error {
  override readonly name = 'ServerRefusal';
  constructor(
    readonly status: number,
    readonly code: ServerRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** Fastify's own refusals, by their code, as ours. */
const FRAMEWORK_REFUSALS: Readonly<Record<string, [number, ServerRefusalCode, string]>> = {
  FST_ERR_BAD_URL: [400, 'bad_request_target', 'Bad request target.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'bad_request_target', 'The request target is too long.'],
  FST_ERR_NOT_FOUND: [404, 'route_not_found', 'Not found.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'body_too_large', 'The body is not as long as declared.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The request body is empty; send JSON.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
};

/**
 * The error as a ServerRefusal when it is one of the framework's refusals
 * (told apart by its code, never its message), else the error unchanged: a
 * route's own error, or a schema's (Fastify marks those `FST_ERR_VALIDATION`
 * with `validationContext`, the zod error as it was thrown), which each
 * server maps itself.
 */
export function asServerRefusal(error: unknown): unknown {
  if (error instanceof ServerRefusal) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? FRAMEWORK_REFUSALS[code] : undefined;
  if (known) return new ServerRefusal(...known);
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return new ServerRefusal(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  return error;
}
