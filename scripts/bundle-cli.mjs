#!/usr/bin/env node
// Bundles the `toolsteps` command into CommonJS: dist/cli/toolsteps.cjs, the
// package's bin, and dist/cli/toolsteps-commands.cjs, the command tree it
// requires for anything but `--version` and a plain `search`.
//
// Why: a cold `toolsteps run` spent most of its start in Node's ES module
// loader, resolving, reading and compiling hundreds of files one by one (many
// of them zod's locales, which every zod entry point loads). In one
// file, esbuild drops what the CLI never calls (most of zod), and a CommonJS
// file skips the ES module loader altogether, whose own start (its internal
// modules, resolution, package scope lookups) comes before any of our code
// runs (docs/benchmarks.md has the cold-start figures). What a command does not
// use stays unevaluated: esbuild wraps each lazily imported module in a
// function that runs on first import, so only parsing is paid for it. That
// parse is why the command tree is a second file: `--version` and `search`,
// the commands run most, would otherwise parse all of it first.
//
// The library (`import 'toolsteps'`) has bundles of its own (ES modules,
// scripts/bundle-library.mjs). The CLI's bundle has its own copy of the
// runtime, the steps and zod, but not of the sandbox: the commands that start
// one (`eval` too) import the library's (cli/library-sandbox.ts), and are
// handed ports, URLs and keys; `eval` also hands it the registry, through
// `sandboxTwins`, whose errors the CLI knows by their brand, not their class.
// Nothing else crosses between the CLI's copy and another: the
// CLI loads no user module, and the optional peers it loads (the MCP SDK,
// ioredis, bullmq, pg, the AI SDK) stay outside the bundle and are handed plain
// JSON and strings, never our classes.
//
// What stays a second copy and what does not is weighed against the package
// tarball's budget (bench --only package) and the cold starts (bench --only
// cold). A dependency the package installs anyway is loaded from
// node_modules by the one command that needs it, when no cold path does:
// yaml (`eval`'s scenario and agent files) and jose (`tokens create` and a
// server checking a bearer token) were a fifth of the command tree. The rest
// stays inside: commander runs for every command, p-retry (ES modules only) for every `run`, and
// zod's own entry loads its fifty locales (some 250 M instructions, half a
// cold `run`), so their copies are what keeps those commands' start short.
//
// Usage: node scripts/bundle-cli.mjs   (dist/cli/main.js -> dist/cli/)
// Tests call bundleCli() on sources they compile first (test/support/bundle-for-child.ts).
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The optional peers are the user's to install: resolved at run time from
 * where the package is, never copied in. Modules loaded through
 * `createRequire` (undici, json-p3, re2js, csv-parse) are not seen by the
 * bundler and stay outside too, each loaded only by the code that needs it.
 * zod, a required peer so that the library and the user's schemas share one
 * copy, is bundled all the same: the CLI loads no user module to share it
 * with, and its own copy is what keeps the cold start short (above).
 */
function peerDependencies() {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const optional = manifest.peerDependenciesMeta ?? {};
  return Object.keys(manifest.peerDependencies ?? {}).filter((name) => optional[name]?.optional);
}

/**
 * Dependencies (package.json installs them) that the bundle requires from
 * node_modules instead of copying: CommonJS, so `require` loads them on
 * Node 20, and imported only by modules that no cold path evaluates (esbuild
 * puts the `require` inside the lazy wrapper of the module that imports it).
 * test/cli/bundled-cli.test.ts holds them outside the bundle and off `run`.
 */
const REQUIRED_AT_RUN_TIME = ['yaml'];

/** What both bundles are built with. */
function commonOptions() {
  return {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    external: [...peerDependencies(), ...REQUIRED_AT_RUN_TIME],
    // The sources find package.json, and require undici and json-p3, from `import.meta.url`:
    // in one file that is the bundle's own address, from which both resolve the same way.
    define: { 'import.meta.url': '__toolstepsModuleUrl' },
    // 'use strict' first: our modules are ES modules, strict by definition, and esbuild's own
    // directive would come after the banner, where it no longer counts.
    banner: {
      js: "'use strict';\nconst __toolstepsModuleUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    // Bundling renames functions and classes whose names collide across modules; a name is
    // shown to users (a trigger's signature scheme is its verify function's name).
    keepNames: true,
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  };
}

/** The file the command tree is bundled into, beside the bin. */
const COMMANDS_FILE = 'toolsteps-commands.cjs';

/**
 * command-tree's `import('./program.js')` (the unbundled path) stays out of
 * the bin: the bundled path requires the command tree's own bundle instead,
 * so the bin holds only what `--version` and a plain `search` need, and those
 * never parse the rest.
 */
function commandTreeApart() {
  return {
    name: 'command-tree-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\/program\.js$/ }, (args) =>
        path.basename(args.importer) === 'command-tree.js'
          ? { path: `./${COMMANDS_FILE}`, external: true }
          : undefined,
      );
    },
  };
}

/** The library's sandbox entry, from the command tree's bundle beside the bin (cli/library-sandbox.ts). */
const LIBRARY_SANDBOX = '../lib/sandbox.js';

/**
 * cli/library-sandbox.ts's `import('../sandbox/index.js')` (the unbundled
 * path) stays out of the command tree: the bundled path imports the
 * library's copy of the sandbox instead, which the package ships anyway.
 */
function sandboxFromLibrary() {
  return {
    name: 'sandbox-from-library',
    setup(build) {
      build.onResolve({ filter: /\/sandbox\/index\.js$/ }, (args) =>
        path.basename(args.importer) === 'library-sandbox.js'
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
}

/** Where the command tree finds jose instead: cli/installed-jose.ts, beside program.js. */
const INSTALLED_JOSE = 'installed-jose.js';

/**
 * src/tenants/load-jose.ts's `import('jose')` would copy jose into the
 * command tree (esbuild turns the import into a bundled require). jose is ES
 * modules only, so it cannot be a plain external either: the tree's
 * `./load-jose.js` becomes cli/installed-jose.ts, which imports the installed
 * jose through the bin's importer. Always, the tests' bundles too, so they
 * run the package's path.
 */
function joseFromPackage(commandsFolder) {
  const tenants = path.join(path.dirname(commandsFolder), 'src/tenants');
  return {
    name: 'jose-from-package',
    setup(build) {
      build.onResolve({ filter: /^\.\/load-jose\.js$/ }, (args) =>
        args.resolveDir === tenants ? { path: path.join(commandsFolder, INSTALLED_JOSE) } : undefined,
      );
    },
  };
}

/** A build that warned is one that runs, but not as meant; it fails here instead. */
async function strictBuild(options) {
  const result = await build(options);
  // An empty glob, for one, is a CLI whose step table is empty and that loads the whole
  // catalogue for every `run`.
  if (result.warnings.length) {
    throw new Error(`bundling the CLI gave ${result.warnings.length} warning(s); see above`);
  }
  return result.metafile;
}

/**
 * Bundles the CLI whose compiled main module is `entry` (the step table
 * matches compiled `.js` step files on disk) into two files: `outfile`, the
 * bin, with main and its answers to `--version` and a plain `search`; and
 * beside it the command tree (program.js and everything the commands use),
 * which the bin requires for any other command. Only an argument list and
 * an exit code pass between the two. With `librarySandbox` (the package's
 * build), the commands that start a sandbox load the library's
 * (dist/lib/sandbox.js, beside dist/cli/) rather than a copy in the tree;
 * without, for a CLI bundled with no library beside it (the tests'), the
 * tree holds its own. Resolves with esbuild's metafile of both, which says
 * which source modules went into which file.
 */
export async function bundleCli({
  entry = path.join(root, 'dist/cli/main.js'),
  outfile = path.join(root, 'dist/cli/toolsteps.cjs'),
  librarySandbox = true,
} = {}) {
  const options = commonOptions();
  const commandsFile = path.join(path.dirname(outfile), COMMANDS_FILE);
  const joseFromPackagePlugin = joseFromPackage(path.dirname(entry));
  const commands = await strictBuild({
    ...options,
    ...(librarySandbox
      ? {
          define: { ...options.define, TOOLSTEPS_LIBRARY_SANDBOX: JSON.stringify(LIBRARY_SANDBOX) },
          plugins: [sandboxFromLibrary(), joseFromPackagePlugin],
        }
      : { plugins: [joseFromPackagePlugin] }),
    entryPoints: [path.join(path.dirname(entry), 'program.js')],
    outfile: commandsFile,
    // import() of an optional peer becomes a lazy require (each peer's supported range ships
    // CommonJS): the code cache compiles this file as a vm script, where import() would need
    // an experimental loader hook that prints a warning (see command-tree.ts).
    supported: { 'dynamic-import': false },
  });
  const bin = await strictBuild({
    ...options,
    entryPoints: [entry],
    outfile,
    define: {
      ...options.define,
      TOOLSTEPS_COMMAND_TREE: JSON.stringify({ file: `./${COMMANDS_FILE}` }),
    },
    // The command tree is outside this bundle: load it with require, not the ES module loader.
    supported: { 'dynamic-import': false },
    plugins: [commandTreeApart()],
  });
  chmodSync(outfile, 0o755);
  return { inputs: { ...commands.inputs, ...bin.inputs }, outputs: { ...commands.outputs, ...bin.outputs } };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleCli();
