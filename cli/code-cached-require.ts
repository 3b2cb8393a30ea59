import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** A cache file larger than this is not ours (the command tree's is many times smaller): it is not read. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

/** Another build's cache files untouched this long are deleted when a new one is written. */
const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** Where one command's code caches live, and how each is named. */
export interface CodeCacheFolder {
  folder: string;
  /** The cache file for a source whose content hashes to `sourceHash`. */
  fileFor: (sourceHash: string) => string;
  /** A cache file of any source, command and Node version: others of these, stale, are pruned. */
  isCacheFile: (name: string) => boolean;
}

/** Whether a file or folder is ours and no one else can write it (its content would run as us). */
function ownedAndClosed(stat: fs.Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0);
}

/**
 * Whether the cache folder can be trusted: a real folder (not a link), ours,
 * that no one else can write. A folder others can write could hold a file
 * swapped in between our checks and our read.
 */
function trustedFolder(folder: string): boolean {
  try {
    const stat = fs.lstatSync(folder);
    return stat.isDirectory() && ownedAndClosed(stat);
  } catch {
    return false;
  }
}

/**
 * The cached code, when it can be trusted: a regular file, ours, that no one
 * else can write, in a folder of the same kind, and of a plausible size.
 * Anything else reads as no cache. The open never blocks (a FIFO planted in
 * the folder would otherwise wait for a writer forever) and follows no link.
 */
function readTrustedCache(folder: string, file: string): Buffer | undefined {
  if (!trustedFolder(folder)) return undefined;
  let descriptor: number | undefined;
  try {
    const flags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
    descriptor = fs.openSync(file, flags);
    const stat = fs.fstatSync(descriptor);
    if (!stat.isFile() || stat.size > MAX_CACHE_BYTES || !ownedAndClosed(stat)) return undefined;
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
function writeCache(cache: CodeCacheFolder, file: string, data: Buffer): void {
  const { folder } = cache;
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
  } catch {
    // It exists (the usual case), or it cannot be made, which the write below finds out.
  }
  // A folder we would not read from is not written to either.
  if (!trustedFolder(folder)) return;
  try {
    fs.writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    pruneStale(folder, path.basename(file), cache.isCacheFile);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * The hash that names a source's cache: of the bytes as loaded, because V8
 * tells sources apart only by length, so a file edited after the build at
 * the same length would otherwise run the old compiled code.
 */
function sourceHash(source: Buffer): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 16);
}

/**
 * `require(filename)` for one CommonJS file, compiled through V8's code
 * cache: the bytecode of every function the previous run of the same command
 * compiled is read back instead of parsing and compiling the source again.
 * For the CLI's command tree, one large file, that is most of what a
 * one-shot command spends before its own work (docs/benchmarks.md,
 * "Figures behind the code"). Node 22 has this built in
 * (`module.enableCompileCache`); Node 20 has only `vm.Script`'s cachedData,
 * which is what this uses on every version.
 *
 * V8 refuses a cache made by another V8 version, other flags or a source of
 * another length, and the run then compiles as usual and writes a fresh one;
 * a source changed at the same length is told apart by the cache file's
 * name, which holds a hash of the source as read here. The cache is made by
 * the second run (the first leaves an empty file), as the process exits, so
 * it holds the functions that run compiled lazily too, not just the top level.
 *
 * The file must not call `import()`: a vm script can only hand it to Node's
 * loader through an experimental option that prints a warning. The CLI's
 * bundles load their optional peers with require instead. Without a cache
 * file, this is a plain require.
 */
export function requireWithCodeCache(filename: string, cache: CodeCacheFolder | undefined): unknown {
  const requireHere = createRequire(filename);
  if (!cache) return requireHere(filename);
  const source = fs.readFileSync(filename);
  const file = cache.fileFor(sourceHash(source));
  const stored = readTrustedCache(cache.folder, file);
  const cachedData = stored?.length ? stored : undefined;
  // The same wrapper Node's CommonJS loader puts around a module, on the same line so line numbers hold.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source.toString('utf8')}\n})`;
  const script = new vm.Script(wrapped, { filename, ...(cachedData ? { cachedData } : {}) });
  if (stored === undefined) {
    // First run: only an empty file that says the command was seen. Serialising the cache
    // of the whole tree is a cost a command run once never earns back; V8 in browsers waits
    // for a script's second load the same way.
    process.once('exit', () => writeCache(cache, file, Buffer.alloc(0)));
  } else if (!cachedData || script.cachedDataRejected) {
    process.once('exit', () => writeCache(cache, file, script.createCachedData()));
  }
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, requireHere, module, filename, path.dirname(filename));
  return module.exports;
}
