// Pure parts of the membank OpenClaw plugin (no OpenClaw import), so tests run them on any Node.
import { execFile } from "node:child_process";

/** The OpenClaw releases this plugin is tested against; package.json peerDependencies says the same. */
export const SUPPORTED_OPENCLAW = ">=2026.9.6 <2026.10.0";
const MIN = [2026, 9, 6];
const BELOW = [2026, 10, 0];

function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** Undefined when `version` (e.g. "2026.9.6", "2026.9.7-beta.1") is supported, else the message to show. */
export function unsupportedHostMessage(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version ?? "").trim());
  if (m) {
    const v = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (cmp(v, MIN) >= 0 && cmp(v, BELOW) < 0) return undefined;
  }
  return (
    `membank plugin supports OpenClaw ${SUPPORTED_OPENCLAW}, this is ${version || "an unknown version"}; ` +
    "its tools are off. Update membank (git pull, pnpm install) or use `membank openclaw setup --mcp` instead."
  );
}

/** Plugin config with defaults; `ctx` is OpenClaw's tool context (its workspaceDir is the agent's workspace). */
export function resolveConfig(pluginConfig, ctx = {}) {
  const c = pluginConfig ?? {};
  return {
    membank: typeof c.membank === "string" ? c.membank : undefined,
    // membank's better-sqlite3 is built for the node that ran `pnpm install`, not OpenClaw's Node 24.
    node: typeof c.node === "string" ? c.node : process.execPath,
    workspace: typeof c.workspace === "string" ? c.workspace : ctx.workspaceDir,
    timeoutMs: Number.isInteger(c.timeoutMs) ? c.timeoutMs : 120_000,
  };
}

/**
 * `params[key]` as a non-empty string; else throws what the tool needs. OpenClaw checks a model's
 * arguments against the schema first; a caller that does not would otherwise get "no results"
 * for a recall of "undefined", which reads as "nothing remembered".
 */
function text(tool, params, key) {
  const v = params?.[key];
  if ((typeof v === "string" && v.trim() !== "") || typeof v === "number") return String(v);
  throw new Error(`${tool}: "${key}" must be a non-empty string, got ${JSON.stringify(v) ?? "nothing"}`);
}

/** argv (after node) for memory_recall. */
export function recallArgv(cfg, params) {
  const query = text("memory_recall", params, "query");
  const argv = [cfg.membank, "recall", "--json", "--workspace", cfg.workspace];
  if (params.k !== undefined) argv.push("--k", String(params.k));
  if (params.since) argv.push("--since", params.since);
  if (params.until) argv.push("--until", params.until);
  if (params.entity) argv.push("--entity", params.entity);
  // "--" so a query starting with "-" is a query, not a flag.
  argv.push("--", query);
  return argv;
}

/** argv (after node) for memory_entity: recall restricted to one entity. */
export function entityArgv(cfg, params) {
  const name = text("memory_entity", params, "name").replace(/^@/, "");
  return [
    cfg.membank,
    "recall",
    "--json",
    "--workspace",
    cfg.workspace,
    "--entity",
    name,
    "--k",
    String(params.limit ?? 20),
    "--",
    name,
  ];
}

/** Compact text for the model: one cited line per result, then its content. */
export function formatResults(res) {
  const results = Array.isArray(res?.results) ? res.results : [];
  if (results.length === 0) return "no results";
  return results
    .map((r, i) => {
      const bits = [r.kind, r.timestamp, r.confidence !== undefined ? `c=${r.confidence}` : ""].filter(Boolean);
      return `${i + 1}. [${bits.join(" ")}] ${r.source}\n${String(r.content ?? "").trim()}`;
    })
    .join("\n");
}

/** The memory prompt supplement: when to call the tools, and the Retain paragraph. */
export function promptLines(availableTools, retainGuidance) {
  const has = (name) => (typeof availableTools?.has === "function" ? availableTools.has(name) : false);
  const lines = [];
  if (has("memory_recall") || has("memory_entity")) {
    lines.push("## membank");
    if (has("memory_recall"))
      lines.push(
        "Call `memory_recall` before answering about people, preferences, decisions, or what happened on a date " +
          "or in a period; it returns typed facts and opinions with confidence, each cited as path#Lline.",
      );
    if (has("memory_entity"))
      lines.push(
        "Call `memory_entity` for the full picture of one person, project or place (its bank page and facts).",
      );
    lines.push("");
  }
  if (retainGuidance) lines.push(...retainGuidance.trimEnd().split("\n"), "");
  return lines;
}

/** Run membank's CLI; resolves with parsed JSON or rejects with a one-line message. */
export function runMembank(cfg, argv, signal) {
  if (!cfg.membank) {
    return Promise.reject(new Error("membank plugin: config.membank is not set; run `membank openclaw setup`"));
  }
  if (!cfg.workspace) {
    return Promise.reject(new Error("membank plugin: no workspace (set plugins.entries.membank.config.workspace)"));
  }
  return new Promise((resolve, reject) => {
    execFile(
      cfg.node,
      argv,
      { timeout: cfg.timeoutMs, maxBuffer: 16 * 1024 * 1024, signal, env: process.env },
      (error, stdout, stderr) => {
        if (error) {
          // membank's message from its last "membank:" line on ("… is not a membank workspace" and
          // "Create one with: …"), as one line; warnings printed before it are left out.
          const lines = String(stderr)
            .trim()
            .split("\n")
            .map((l) => l.trim());
          const from = lines.findLastIndex((l) => l.startsWith("membank: "));
          const why =
            lines
              .slice(Math.max(0, from === -1 ? lines.length - 1 : from))
              .filter(Boolean)
              .join(" ")
              .replace(/^membank: /, "") || error.message;
          reject(new Error(`membank ${argv[1]} failed: ${why}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`membank ${argv[1]} printed no JSON`));
        }
      },
    );
  });
}
