import { readFileSync } from "node:fs";
import path from "node:path";
import { parseConfigText } from "../sessions/openclaw-config.js";
import { MembankError } from "../workspace/errors.js";
import type { OpenClawContext } from "./context.js";
import { type RunResult, runOpenClaw } from "./run.js";

interface ValidateReport {
  valid?: unknown;
  path?: unknown;
  issues?: { path?: unknown; message?: unknown }[];
}

/**
 * Why OpenClaw refuses its own config (`openclaw config validate --json`: valid false and
 * its issues), or undefined when it accepts it or the answer is not that report. OpenClaw
 * would refuse each of setup's changes on such a config, after earlier steps were done.
 */
export function invalidConfigMessage(res: RunResult, configFile: string): string | undefined {
  if (res.code === 0) return undefined;
  const at = res.stdout.search(/^\{/m);
  if (at < 0) return undefined;
  let report: ValidateReport;
  try {
    report = JSON.parse(res.stdout.slice(at)) as ValidateReport;
  } catch {
    return undefined;
  }
  if (report.valid !== false) return undefined;
  const issues = (report.issues ?? []).map((i) => `${String(i.path ?? "")}: ${String(i.message ?? "")}`);
  const file = typeof report.path === "string" ? report.path : configFile;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return (
    `${file}: OpenClaw finds its config invalid: ${issues[0] ?? "see openclaw config validate"}${more}. ` +
    "Fix it (`openclaw doctor --fix`, or by hand), then run setup again; nothing was changed"
  );
}

/** Stop before any change when OpenClaw itself would refuse its config. */
export async function assertOpenClawConfigValid(ctx: OpenClawContext): Promise<void> {
  const res = await runOpenClaw(ctx.runner, ["config", "validate", "--json"], 120_000);
  const message = invalidConfigMessage(res, ctx.configFile);
  if (message) throw new MembankError(message, { code: "EOPENCLAWCONFIG" });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Why OpenClaw 2026.9 would refuse every config write setup makes, seen in the file alone, or
 * undefined. It never flattens an `$include`: a config whose root authors `$include` is
 * read-only to it, and so is an agents include still in the pre-2026.9 shape (`list`,
 * `default: true`), which it must migrate on each write ("Config write would flatten
 * $include-owned config at agents"). `config` is the resolved config (includes merged).
 */
export function includeBlocksWrites(configFile: string, config: Record<string, unknown>): string | undefined {
  let raw: unknown;
  try {
    raw = parseConfigText(readFileSync(configFile, "utf8"), configFile);
  } catch {
    return undefined; // missing: OpenClaw creates it; unreadable was reported when it was loaded
  }
  if (!isObject(raw)) return undefined;
  const nothing = "; nothing was changed";
  if ("$include" in raw) {
    return (
      `${configFile}: its top level is an $include, and OpenClaw 2026.9 never writes through one (every change setup ` +
      `makes would fail with "Config write would flatten $include-owned config at <root>"). Move the $include into ` +
      `the sections it holds (e.g. agents: { $include: ... }), then run setup again${nothing}`
    );
  }
  const agents = raw.agents;
  const resolved = config.agents;
  if (!isObject(agents) || !("$include" in agents) || !isObject(resolved)) return undefined;
  const entries = isObject(resolved.entries) ? Object.values(resolved.entries) : [];
  const legacy = Array.isArray(resolved.list) || entries.some((e) => isObject(e) && "default" in e);
  if (!legacy) return undefined;
  const spec = agents.$include;
  const names = (Array.isArray(spec) ? spec : [spec]).filter((s): s is string => typeof s === "string");
  const files = names.map((n) => path.resolve(path.dirname(configFile), n)).join(", ");
  return (
    `${files}: OpenClaw's agents (included from ${configFile}) are in the shape before 2026.9 (agents.list, default: true); ` +
    `OpenClaw migrates that shape on every config write and refuses to write through an $include, so each change ` +
    `setup makes would fail. Rewrite it as entries: { <id>: { ... } } with ownership: "explicit" and ` +
    `defaults: { systemAgent: { agentId: "<default id>" } }, then run setup again${nothing}`
  );
}

/**
 * The 1-based line of the first JSON5 comment (`//` or a block comment) in a config's text, by
 * OpenClaw 2026.9's own rule (config/json5-comments.ts hasJSON5Comments: outside quoted
 * strings), or undefined when it has none.
 */
export function firstCommentLine(raw: string): number | undefined {
  let quote: string | undefined;
  let line = 1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\n") line++;
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "/" && (raw[i + 1] === "/" || raw[i + 1] === "*")) return line;
  }
  return undefined;
}

/**
 * Why setup stops before writing a config that has comments, or undefined (no comments, no
 * file). OpenClaw 2026.9 writes `openclaw.json` back as plain JSON on every change ("Config
 * write will strip JSON5 comments"), and every change setup makes goes through OpenClaw's CLI:
 * the person's comments would go without a word. `$include` files are left as written.
 */
export function commentsLostByWrites(configFile: string): string | undefined {
  let raw: string;
  try {
    raw = readFileSync(configFile, "utf8");
  } catch {
    return undefined;
  }
  const line = firstCommentLine(raw);
  if (line === undefined) return undefined;
  return (
    `${configFile}:${line}: has comments, and OpenClaw 2026.9 writes this file back as plain JSON on every change, ` +
    "so the changes setup makes through OpenClaw's CLI would delete them. To keep them, move the commented " +
    "sections into an $include file (OpenClaw leaves those as written); to go ahead without them, run setup " +
    `again with --drop-comments (OpenClaw keeps the file as it was before each of its last five writes, in ` +
    `${path.basename(configFile)}.bak, .bak.1 … .bak.4: setup makes three or four); nothing was changed`
  );
}
