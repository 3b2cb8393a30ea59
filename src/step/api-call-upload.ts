import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { InputError } from '../errors/index.js';
import { builtOnce } from '../values/built-once.js';

/** The ticketing provider takes attachments up to 50 MB; a file is held in memory whole, so the cap applies to every upload. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const MAX_UPLOAD_BASE64 = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;

export interface UploadInput {
  body_base64?: string;
  body_file?: string;
  content_type?: string;
}

/**
 * The raw body of an upload: the base64 given, or the file read from disk
 * (a regular file of at most 50 MiB; anything else is refused before a
 * byte is sent).
 */
export async function uploadBody(
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

/** The fields of a file sent as raw bytes, e.g. `POST /api/v2/uploads.json?filename=report.pdf`. */
export const UPLOAD_FIELDS = builtOnce(() => ({
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
}));
