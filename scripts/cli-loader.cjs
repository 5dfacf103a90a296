#!/usr/bin/env node
// membank's CLI entry (package.json bin): runs the bundled CLI (membank-bundle.cjs, written
// by scripts/bundle.mjs next to this file) with V8's code cache, the v8-compile-cache
// technique, since Node 20 has no module.enableCompileCache: the bundle is compiled through
// vm.Script with the cached code of an earlier run of the same command, so a start does not
// parse and compile membank's code again. The cache lives in a per-user cache folder
// ($XDG_CACHE_HOME/membank, else ~/.cache/membank), never in a workspace; its file name
// holds the bundle's content hash, the Node version and the architecture, and V8 rejects
// data of another V8 or other flags. Any problem (no folder, a bad file) runs the bundle
// plainly instead.
// NODE_DISABLE_COMPILE_CACHE=1 (Node 22's switch for its own cache) turns it off.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");
const vm = require("node:vm");
const Module = require("node:module");

/** The bundle's SHA-256 prefix, filled in by scripts/bundle.mjs. */
const BUNDLE_HASH = "__MEMBANK_BUNDLE_HASH__";
const bundle = path.join(__dirname, "membank-bundle.cjs");

function cacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache");
  return path.join(base, "membank");
}

/** The bundle compiled with the code cache, ready to run; undefined when the cache is off. */
function compileCached() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // One cache per command: each holds the functions that command compiled.
  const command = /^[a-z][a-z-]{0,19}$/.test(process.argv[2] ?? "") ? process.argv[2] : "other";
  const dir = cacheDir();
  const file = path.join(dir, `${BUNDLE_HASH}-${process.version}-${process.arch}-${command}.bin`);
  // Cached code runs as this user's code: only from a folder this user owns.
  const owner = fs.statSync(dir, { throwIfNoEntry: false })?.uid;
  if (owner !== undefined && process.getuid && owner !== process.getuid()) return undefined;
  let cachedData;
  try {
    cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  const source = fs.readFileSync(bundle, "utf8");
  // Module.wrap's parameters plus the importer below.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __membankLoaderImport) { ${source}\n})`;
  const script = new vm.Script(wrapped, { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit, so the cache holds what this run compiled, not only the top level.
    // Not after a failed run (a typo of a command name makes no cache of its own).
    process.once("exit", (code) => {
      if (code === 0) writeCache(script, dir, file);
    });
  }
  return script.runInThisContext();
}

function writeCache(script, dir, file) {
  try {
    const data = script.createCachedData();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Whole or nothing: a concurrent start reads the old file or the new one.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
    // Caches of other builds (older than a day, so parallel checkouts do not thrash).
    const dayAgo = Date.now() - 86_400_000;
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith(".bin") || name.startsWith(`${BUNDLE_HASH}-`)) continue;
      const old = path.join(dir, name);
      if (fs.statSync(old).mtimeMs < dayAgo) fs.rmSync(old, { force: true });
    }
  } catch {
    // A cache is an optimisation: never an error.
  }
}

let compiled;
try {
  compiled = compileCached();
} catch {
  compiled = undefined;
}
if (compiled === undefined) {
  require(bundle);
} else {
  // The bundle as a CommonJS module of its own (its require resolves from dist/).
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(__dirname);
  // import() inside code compiled from a cache fails on Node 20 (no dynamic import callback
  // survives the cache), so the bundle's import() calls come here, to a module Node compiled.
  const importer = (specifier) => import(specifier);
  compiled.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, __dirname, importer);
  mod.loaded = true;
}
