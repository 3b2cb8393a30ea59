import * as z from 'zod';
import { builtOnce, PathSegment } from '../../../src/kit/index.js';

/** Characters that would change which path a value lands on, or smuggle a second segment or a query. */
const NO_PATH_UNSAFE_CHARACTERS = /^[^\s/\\?#%\u0000-\u001f\u007f]*$/;
const NO_DOT_SEGMENTS = /^(?!\.$)(?!.*\.\.)/;

/**
 * An identifier that goes into a URL path segment or a request body. Refused
 * before anything is sent: `/`, `\`, `?`, `#`, `%` (an encoded form of those),
 * whitespace, control characters, `..`, and a lone `.` (URL parsers resolve
 * `/./` and `/../` away, so `users/../invite/delete` would reach another endpoint).
 * Regexes rather than refinements, so the JSON Schema carries them to form renderers.
 */
export function safeId(description: string) {
  return PathSegment()
    .min(1)
    .max(256)
    .regex(
      NO_PATH_UNSAFE_CHARACTERS,
      'cannot contain "/", "\\", "?", "#", "%", whitespace or control characters',
    )
    .regex(NO_DOT_SEGMENTS, 'cannot be "." or contain ".."')
    .describe(description);
}

export const UserId = builtOnce(() =>
  safeId(
    'Id of the user on the platform (not their email). It goes into the request path, so "/", "?", "#", "..", and whitespace are refused.',
  ),
);
export const InviteCode = builtOnce(() =>
  safeId('The invite_code returned by Invite User to Project (or Change Invite Role).'),
);
export const OrganizationId = builtOnce(() => safeId('Id of the organization that will own the project.'));
export const Email = builtOnce(() => z.email().max(254).describe('Email address of the person to invite.'));

/**
 * The project id travels inside the Authorization header as `<project_id>:<api_key>`,
 * so a colon, whitespace or control character would change what the header says.
 */
export const ProjectId = builtOnce(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'letters, digits, ".", "_" and "-", up to 128 characters')
    .regex(NO_DOT_SEGMENTS, 'cannot contain ".."'),
);
