/**
 * A command action whose implementation module loads when the command runs,
 * so building the command tree (every start, `--help` and `--version`
 * included) loads only commander and the command declarations, not what
 * each command needs to do its work (zod, the stores, the runtime).
 */
export function lazyAction<Name extends string, Module extends Record<Name, (...args: never[]) => unknown>>(
  load: () => Promise<Module>,
  name: Name,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const module = await load();
    await (module[name] as unknown as (...args: unknown[]) => unknown)(...args);
  };
}
