// Shared helpers for bench/index.bench.mjs, bench/search.bench.mjs and bench/recall.bench.mjs.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const repoRoot = path.resolve(import.meta.dirname, "..");

/**
 * `--help`: print the script's header comment (the lines before its first import), and the
 * flags it takes with their defaults when given, then exit. Without a URL, the running script.
 */
export function helpFromHeader(scriptUrl = pathToFileURL(process.argv[1]).href, defaults) {
  if (!process.argv.includes("--help") && !process.argv.includes("-h")) return;
  const lines = readFileSync(new URL(scriptUrl), "utf8").split("\n");
  const body = lines[0].startsWith("#!") ? lines.slice(1) : lines;
  const end = body.findIndex((l) => l.startsWith("import"));
  console.log(body.slice(0, end === -1 ? body.length : end).join("\n"));
  if (defaults) {
    const kebab = (k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    console.log(
      `flags: ${Object.entries(defaults)
        .map(([k, v]) => `--${kebab(k)} (${v})`)
        .join(", ")}`,
    );
  }
  process.exit(0);
}

/** Parse `--name value` flags with defaults; `--help` prints the script's header and flags. */
export function flags(defaults) {
  helpFromHeader(undefined, defaults);
  const out = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, "").replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(key in defaults)) throw new Error(`unknown flag ${argv[i]}; known: ${Object.keys(defaults).join(", ")}`);
    out[key] = typeof defaults[key] === "number" ? Number(argv[++i]) : argv[++i];
  }
  return out;
}

/**
 * A private copy of a generated corpus under bench/.out/ (the benchmark writes its index
 * into the workspace's .memory/, and must not disturb other benchmarks' corpora).
 * Generates the corpus with bench/generate.mjs when it is missing.
 */
export function corpusCopy(name, tag) {
  const years = Number(name.replace(/y$/, ""));
  const src = path.join(repoRoot, "bench/.corpus", name);
  if (!existsSync(path.join(src, "memory"))) {
    execFileSync(
      process.execPath,
      [path.join(repoRoot, "bench/generate.mjs"), "--years", String(years), "--out", src],
      {
        stdio: "inherit",
      },
    );
  }
  const dir = path.join(repoRoot, "bench/.out", `${tag}-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(src, dir, { recursive: true });
  return dir;
}

/**
 * A fixed-dimension synthetic embedder: each text's SHA-256 seeds a xorshift generator
 * that fills `dims` floats, L2-normalised. Nearly free to compute, so a build with it
 * times the vector storage (chunk_vectors + sqlite-vec vec0) rather than a model.
 */
export function syntheticEmbedder(dims = 384) {
  const e = {
    id: "synthetic",
    model: `xorshift-${dims}`,
    dims,
    ms: 0,
    async embed(texts) {
      const t = performance.now();
      const out = texts.map((text) => {
        const seed = createHash("sha256").update(text).digest();
        let x = seed.readUInt32LE(0) || 1;
        const v = new Float32Array(dims);
        let norm = 0;
        for (let i = 0; i < dims; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          x >>>= 0;
          v[i] = x / 0xffffffff - 0.5;
          norm += v[i] * v[i];
        }
        norm = Math.sqrt(norm);
        for (let i = 0; i < dims; i++) v[i] /= norm;
        return v;
      });
      e.ms += performance.now() - t;
      return out;
    },
  };
  return e;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
}

/** Write the JSON details to bench/.out/<name>.json and print the Markdown table bench/README.md quotes. */
export function report(name, json, header, rows) {
  const out = path.join(repoRoot, `bench/.out/${name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
  console.log(header);
  console.log(`|${"---|".repeat(header.split("|").length - 2)}`);
  for (const r of rows) console.log(r);
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  console.log(`\nload average during the run: ${load}; details in ${out}`);
}

/**
 * Hooks for timing a CLI child in bench/.out/<tag>-hooks: `--import register.mjs` appends
 * every module URL Node loads to the file named by BENCH_TRACE; `--require cpu.cjs` writes
 * the process's CPU time (user + sys, ms) at exit to the file named by BENCH_CPU (unlike
 * wall time it barely moves with the load of other processes on a shared machine).
 */
export function processHooks(tag) {
  const dir = path.join(repoRoot, `bench/.out/${tag}-hooks`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (process.env.BENCH_TRACE) appendFileSync(process.env.BENCH_TRACE, url + "\\n");
  return next(url, context);
}
`,
  );
  writeFileSync(
    path.join(dir, "register.mjs"),
    `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`,
  );
  writeFileSync(
    path.join(dir, "cpu.cjs"),
    `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeFileSync(process.env.BENCH_CPU, String((u.user + u.system) / 1000)); });\n`,
  );
  return {
    dir,
    /** CPU ms (user + sys) of `node args...`; throws when it fails. */
    cpuMs(args, env) {
      const file = path.join(dir, "cpu.txt");
      const r = spawnSync(process.execPath, ["--require", path.join(dir, "cpu.cjs"), ...args], {
        env: { ...env, BENCH_CPU: file },
        stdio: "ignore",
      });
      if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
      return Number(readFileSync(file, "utf8"));
    },
    /** The module URLs `node args...` loads (none for `node -e ""`). */
    loadedUrls(args, env) {
      const trace = path.join(dir, "trace.txt");
      rmSync(trace, { force: true });
      spawnSync(process.execPath, ["--import", path.join(dir, "register.mjs"), ...args], {
        env: { ...env, BENCH_TRACE: trace },
        stdio: "ignore",
      });
      return existsSync(trace) ? readFileSync(trace, "utf8").trim().split("\n").filter(Boolean) : [];
    },
  };
}
