import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** A cache file larger than this is not ours (the command tree's is under 1 MB): it is not read. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/** Another build's cache files untouched this long are deleted when a new one is written. */
const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** Where one command's code cache lives, and which files in that folder are caches of other builds. */
export interface CodeCacheFile {
  file: string;
  /** A cache file of any build, command and Node version: others of these, stale, are pruned. */
  isCacheFile: (name: string) => boolean;
}

/**
 * The cached code, when it can be trusted: a regular file, ours, that no one
 * else can write (compiled code from a file someone else could write would
 * run as us), and of a plausible size. Anything else reads as no cache.
 */
function readTrustedCache(file: string): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(descriptor);
    const uid = process.getuid?.();
    if (!stat.isFile() || stat.size > MAX_CACHE_BYTES) return undefined;
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return fs.readFileSync(descriptor);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}

/** Deletes other builds' cache files nobody has rewritten for a week: each upgrade would otherwise leave its own behind. */
function pruneStale(folder: string, keep: string, isCacheFile: (name: string) => boolean): void {
  for (const name of fs.readdirSync(folder)) {
    if (name === keep || !isCacheFile(name)) continue;
    const file = path.join(folder, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_AFTER_MS) fs.unlinkSync(file);
    } catch {
      // Gone already, or not ours to delete: either way nothing to do.
    }
  }
}

/**
 * Writes the cache beside a temporary name and renames it into place (mode
 * 0600, folder 0700), so a concurrent reader sees a whole file or none. The
 * cache is an optimisation: any failure (a read-only home, a full disk)
 * leaves things as they were and is not reported.
 */
function writeCache(cache: CodeCacheFile, data: Buffer): void {
  const folder = path.dirname(cache.file);
  const temporary = `${cache.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
  } catch {
    // It exists (the usual case), or it cannot be made, which the write below finds out.
  }
  try {
    fs.writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, cache.file);
    pruneStale(folder, path.basename(cache.file), cache.isCacheFile);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * `require(filename)` for one CommonJS file, compiled through V8's code
 * cache: the bytecode of every function the previous run of the same command
 * compiled is read back instead of parsing and compiling the source again.
 * For the CLI's command tree (1.3 MB) that is most of what a one-shot
 * command spends before its own work. Node 22 has this built in
 * (`module.enableCompileCache`); Node 20 has only `vm.Script`'s cachedData,
 * which is what this uses on every version.
 *
 * V8 refuses a cache made by another V8 version, other flags or a source of
 * another length, and the run then compiles as usual and writes a fresh one;
 * a source changed at the same length is told apart by `cache.file`, whose
 * name the caller derives from the file's content hash. The cache is made by
 * the second run (the first leaves an empty file), as the process exits, so
 * it holds the functions that run compiled lazily too, not just the top level.
 *
 * The file must not call `import()`: a vm script can only hand it to Node's
 * loader through an experimental option that prints a warning. The CLI's
 * bundles load their optional peers with require instead. Without a cache
 * file, this is a plain require.
 */
export function requireWithCodeCache(filename: string, cache: CodeCacheFile | undefined): unknown {
  const requireHere = createRequire(filename);
  if (!cache) return requireHere(filename);
  const stored = readTrustedCache(cache.file);
  const cachedData = stored?.length ? stored : undefined;
  // The same wrapper Node's CommonJS loader puts around a module, on the same line so line numbers hold.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${fs.readFileSync(filename, 'utf8')}\n})`;
  const script = new vm.Script(wrapped, { filename, ...(cachedData ? { cachedData } : {}) });
  if (stored === undefined) {
    // First run: only an empty file that says the command was seen. Making the cache costs
    // about a tenth of a cold run (serialising 700 KB of code), which a command run once
    // never earns back; V8 in browsers waits for a script's second load the same way.
    process.once('exit', () => writeCache(cache, Buffer.alloc(0)));
  } else if (!cachedData || script.cachedDataRejected) {
    process.once('exit', () => writeCache(cache, script.createCachedData()));
  }
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, requireHere, module, filename, path.dirname(filename));
  return module.exports;
}
