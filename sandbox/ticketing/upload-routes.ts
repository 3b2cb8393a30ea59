import { randomBytes } from 'node:crypto';
import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import type { TicketingAccount } from './ticketing-account.js';
import type { AttachmentRecord } from './ticketing-state.js';
import { invalid, NOT_FOUND, type TicketingCaller, type TicketingRequest } from './ticketing-wire.js';

/** The provider's upload tokens last 60 minutes (the Upload Files description). */
const UPLOAD_TTL_MS = 60 * 60_000;
const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+-]+$/i;

/**
 * Declared types that say nothing about the file: the provider's own upload
 * example sends `application/binary`, and node-zendesk sends a file read
 * from a path with its default `application/json` header. For these the
 * attachment's type comes from the file name's extension, as the provider's
 * attachments show it.
 */
const GENERIC_TYPES = new Set(['application/binary', 'application/octet-stream', 'application/json']);
const TYPE_OF_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

/** The attachment's media type: the declared one, unless it is generic and the name says better. */
function attachmentType(declared: string, fileName: string): string {
  if (!GENERIC_TYPES.has(declared.toLowerCase())) return declared;
  const extension = fileName.split('.').at(-1)?.toLowerCase() ?? '';
  return TYPE_OF_EXTENSION[extension] ?? (declared === 'application/json' ? 'application/binary' : declared);
}

function token(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * `POST /api/v2/uploads.json?filename=<name>[&token=<token>][&binary=...]`
 * with the raw file as the body and its media type (or a generic one, see
 * GENERIC_TYPES) as Content-Type: an attachment, and
 * an upload token that create and update take as `comment.uploads`; the
 * same token adds more files to one upload.
 */
function upload(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const fileName = request.query.get('filename');
  if (!fileName) return invalid({ filename: 'filename is required' });
  const contentType =
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  if (!MEDIA_TYPE.test(contentType)) return invalid({ content_type: 'a recognized MIME type is required' });
  const bytes = request.rawBytes ?? Buffer.alloc(0);
  if (!bytes.byteLength) return invalid({ file: 'the body is the file, and it is empty' });
  const given = request.query.get('token');
  const existing = given ? account.uploads.get(given) : undefined;
  if (given && !existing) return json(404, NOT_FOUND);
  const fileToken = token();
  const attachment: AttachmentRecord = {
    id: account.newId('attachment'),
    file_name: fileName,
    content_url: `${base}/attachments/token/${fileToken}/?name=${encodeURIComponent(fileName)}`,
    content_type: attachmentType(contentType, fileName),
    size: bytes.byteLength,
    thumbnails: [],
  };
  account.files.set(fileToken, { attachment, bytes });
  const uploadToken = given ?? token();
  const entry = existing ?? { attachments: [], expiresAt: Date.parse(account.timestamp()) + UPLOAD_TTL_MS };
  entry.attachments.push(attachment);
  account.uploads.set(uploadToken, entry);
  return json(201, {
    upload: {
      token: uploadToken,
      expires_at: new Date(entry.expiresAt).toISOString(),
      attachments: entry.attachments,
      attachment,
    },
  });
}

/** `DELETE /api/v2/uploads/{token}`: 204, the upload and its files are gone; an unknown token is a 404. */
function deleteUpload(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const entry = account.uploads.get(request.params.token ?? '');
  if (!entry) return json(404, NOT_FOUND);
  account.uploads.delete(request.params.token ?? '');
  for (const [fileToken, file] of account.files) {
    if (entry.attachments.includes(file.attachment)) account.files.delete(fileToken);
  }
  return { status: 204 };
}

/** An attachment's content, as its bytes with its media type. */
function download(request: TicketingRequest): Reply {
  const file = request.caller.account.files.get(request.params.token ?? '');
  if (!file) return json(404, NOT_FOUND);
  return { status: 200, headers: { 'content-type': file.attachment.content_type }, body: file.bytes };
}

/**
 * The attachments of `comment.uploads` tokens, consumed; an unknown or
 * expired token is a validation error naming it (nothing changes).
 */
export function takeUploads(
  account: TicketingAccount,
  tokens: unknown,
): { attachments: AttachmentRecord[] } | { problem: Reply } {
  if (tokens === undefined) return { attachments: [] };
  if (!Array.isArray(tokens) || tokens.some((entry) => typeof entry !== 'string')) {
    return { problem: invalid({ uploads: 'uploads must be a list of upload tokens' }) };
  }
  const now = Date.parse(account.timestamp());
  const bad = (tokens as string[]).find((entry) => (account.uploads.get(entry)?.expiresAt ?? 0) < now);
  if (bad !== undefined) return { problem: invalid({ uploads: `Upload token ${bad} is not valid` }) };
  const attachments = (tokens as string[]).flatMap((entry) => account.uploads.get(entry)?.attachments ?? []);
  for (const entry of tokens as string[]) account.uploads.delete(entry);
  return { attachments };
}

/** Uploads (`/api/v2/uploads`) and attachment content (`/attachments/token/...`). */
export function uploadRoutes(router: Router<TicketingCaller>): void {
  router
    .on('POST', ['/api/v2/uploads.json', '/api/v2/uploads'], upload)
    .on('DELETE', ['/api/v2/uploads/:token.json', '/api/v2/uploads/:token'], deleteUpload)
    .on('GET', ['/attachments/token/:token/', '/attachments/token/:token'], download);
}
