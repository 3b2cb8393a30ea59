import type * as z from 'zod';
import type { FieldIssue } from './index.js';

/** A zod failure as the error family's failing fields, each path prefixed (`output.ticket.id`). */
export function fieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)',
    message: issue.message,
  }));
}

/** `path: message` per issue; a message that already names its field in backticks stands alone. */
export function listIssues(issues: readonly FieldIssue[]): string {
  return issues
    .map((issue) =>
      issue.message.includes(`\`${issue.path}\``) ? issue.message : `${issue.path}: ${issue.message}`,
    )
    .join('; ');
}
