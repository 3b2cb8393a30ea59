import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { Comment } from './ticket-schema.js';

/** A file on a comment (AttachmentObject): its content_url is the provider's, to be read with care. */
export const Attachment = builtOnce(() =>
  z.object({
    id: z.number().describe('Attachment id.'),
    file_name: z.string().describe('File name as shown to agents.'),
    content_url: z
      .string()
      .describe('Where the file can be downloaded (needs the account sign-in once attached).'),
    content_type: z.string().describe('Media type, e.g. image/png.'),
    size: z.number().describe('Size in bytes.'),
  }),
);

/** A comment with its files. */
export const CommentWithFiles = builtOnce(() =>
  Comment().extend({
    attachments: z.array(Attachment()).default([]).describe('Files attached to the comment.'),
  }),
);

/** Which comments a caller means: replies the requester sees, notes only agents see, or both. */
export const CommentVisibility = builtOnce(() =>
  z
    .enum(['public', 'internal'])
    .describe('public: a reply the requester sees; internal: a note only agents see.'),
);
