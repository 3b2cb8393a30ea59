import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/**
 * The permission-set name under `permissions.items`. The spec says
 * `serviceDefault`; the platform's public docs say `relevanceDefault`. The
 * spec wins; this constant is the one place to change if the platform disagrees.
 */
export const PERMISSION_SET = 'serviceDefault';

export const Role = builtOnce(() =>
  z
    .enum(['admin', 'editor', 'viewer'])
    .describe('Role on the project: admin (everything), editor (build and run) or viewer (read and run).'),
);
export type Role = z.infer<ReturnType<typeof Role>>;

/** Spec, "Permissions object": the action name that grants each role. */
export const ROLE_ACTIONS = builtOnce(
  () =>
    ({
      admin: 'admin',
      editor: 'role:editor',
      viewer: 'role:viewer',
    }) as const satisfies Record<Role, string>,
);

/** `{items: {serviceDefault: {actions: {<action>: true}}}}`: the only permissions body any step sends. */
export function permissionsFor(role: Role) {
  return { items: { [PERMISSION_SET]: { actions: { [ROLE_ACTIONS()[role]]: true } } } };
}
