let loaded: Promise<typeof import('jose')> | undefined;

/**
 * jose, imported on the first token signed or verified rather than when the
 * library loads: both are asynchronous already, and most embedders that
 * import `toolsteps` never mint or check a scoped token, so its modules
 * stay off their import (bench `--only import`, docs/benchmarks.md).
 */
export function loadJose(): Promise<typeof import('jose')> {
  loaded ??= import('jose');
  return loaded;
}
