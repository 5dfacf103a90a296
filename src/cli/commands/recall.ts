import type { Command } from "commander";
import { displaySafe } from "../../markdown/display.js";
import type { RecallResponse } from "../../recall/types.js";
import type { RecallRequest } from "../../serve/protocol.js";
import { MembankError } from "../../workspace/errors.js";
import { askWarmServer, intFlag, loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface RecallFlags {
  workspace?: string;
  json?: boolean;
  k?: number;
  since?: string;
  until?: string;
  entity?: string;
  kind?: string[];
  asOf?: string;
  budgetTokens?: number;
  explain?: boolean;
  provider?: string;
  fusion?: string;
}

/** The compact human list: one header line per result with its source, then its content indented. */
export function formatRecall(res: RecallResponse): string {
  const out: string[] = [];
  const w = res.intent.window;
  const about = [
    res.intent.kinds.join("+") || "lexical",
    res.intent.entities.length > 0 ? `entities ${res.intent.entities.join(", ")}` : "",
    w ? `window ${w.from ?? "…"}..${w.to ?? "…"} ("${w.text}")` : "",
  ].filter(Boolean);
  out.push(`recall: ${about.join("; ")}`);
  res.results.forEach((r, i) => {
    const bits = [r.kind, r.timestamp, r.confidence !== undefined ? `c=${r.confidence}` : ""].filter(Boolean);
    out.push(`${i + 1}. [${bits.join(" ")}] ${r.source}${r.truncated ? " (cut to fit the budget)" : ""}`);
    for (const line of r.content.split("\n")) out.push(`     ${line}`);
    for (const e of r.evidence ?? []) out.push(`     ${e.stance === "support" ? "+" : "-"} ${e.source}`);
    if (r.evidenceTotal)
      out.push(`     (the newest ${r.evidence?.length} of ${r.evidenceTotal} evidence links: all in ${r.source})`);
    if (r.arms) out.push(`     found by ${r.arms.map((a) => `${a.arm} #${a.rank} (${a.score})`).join(", ")}`);
  });
  if (res.results.length === 0) out.push("no results");
  if (res.fallback) out.push(`fallback: ${res.fallback}`);
  return out.join("\n");
}

function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

export function registerRecall(program: Command): void {
  const cmd = program
    .command("recall")
    .description("answer a question from memory: entity, time, opinion and lexical questions, ranked and cited")
    .argument("<query...>", 'e.g. "what does Mara prefer for status updates?" or "what happened around March 12?"');
  workspaceOption(cmd)
    .option("--json", "print {query, intent, results} as JSON")
    .option("--k <n>", "number of results (default: config recall.k, 8)", intFlag("--k"))
    .option("--since <date>", "only results dated on or after YYYY-MM-DD")
    .option("--until <date>", "only results dated on or before YYYY-MM-DD")
    .option("--entity <name>", "only results about this entity")
    .option(
      "--kind <kind>",
      "only these kinds (repeatable or comma list): world, experience, opinion, observation, note",
      collect,
    )
    .option("--as-of <date>", "date that relative phrases like 'last week' count from (default today)")
    .option(
      "--budget-tokens <n>",
      "token budget for all results (default: config recall.budgetTokens)",
      intFlag("--budget-tokens", 50),
    )
    .option("--explain", "show which arms found each result, with ranks and scores")
    .option("--provider <name>", "embedding provider: auto, local, openai, gemini, use, none")
    .option("--fusion <method>", "weighted (default) or rrf")
    .action(async (words: string[], flags: RecallFlags) => {
      // Flags first, like commander's own checks: the warm path below reads no config.
      let asOf: Date | undefined;
      if (flags.asOf !== undefined) {
        // Lazily: dates.ts loads chrono, which `membank --version` and `--help` must not pay for.
        const { isIsoDate } = await import("../../markdown/log-path.js");
        if (!isIsoDate(flags.asOf)) {
          throw new MembankError(`--as-of must be a date YYYY-MM-DD, got ${JSON.stringify(flags.asOf)}`, {
            exitCode: 2,
          });
        }
        asOf = new Date(`${flags.asOf}T12:00:00Z`);
      }
      if (flags.fusion !== undefined && flags.fusion !== "rrf" && flags.fusion !== "weighted") {
        throw new MembankError(`--fusion must be rrf or weighted, got ${JSON.stringify(flags.fusion)}`, {
          exitCode: 2,
        });
      }
      const request: RecallRequest = {
        op: "recall",
        query: words.join(" "),
        ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
        ...(flags.k !== undefined ? { k: flags.k } : {}),
        ...(flags.since !== undefined ? { since: flags.since } : {}),
        ...(flags.until !== undefined ? { until: flags.until } : {}),
        ...(flags.entity !== undefined ? { entity: flags.entity } : {}),
        ...(flags.kind !== undefined ? { kinds: flags.kind } : {}),
        ...(flags.asOf !== undefined ? { asOf: flags.asOf } : {}),
        ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
        ...(flags.explain ? { explain: true } : {}),
        ...(flags.fusion !== undefined ? { fusion: flags.fusion as "rrf" | "weighted" } : {}),
      };
      const print = (res: RecallResponse) => {
        if (flags.json) printJson(res);
        else process.stdout.write(displaySafe(`${formatRecall(res)}\n`));
      };
      // A running `membank serve` answers without loading the index or a model here.
      const served = await askWarmServer<RecallResponse>(flags, request);
      if (served !== undefined) return print(served);
      const ws = await loadWorkspace(flags);
      const { resolveEmbedder } = await import("../../embed/resolve.js");
      const { closeIndexes } = await import("../../index/handles.js");
      const { recall } = await import("../../recall/recall.js");
      const embedder = await resolveEmbedder(ws, flags.provider === undefined ? {} : { provider: flags.provider });
      try {
        const res = await recall(ws, words.join(" "), {
          embedder,
          ...(flags.k !== undefined ? { k: flags.k } : {}),
          ...(flags.since !== undefined ? { since: flags.since } : {}),
          ...(flags.until !== undefined ? { until: flags.until } : {}),
          ...(flags.entity !== undefined ? { entity: flags.entity } : {}),
          ...(flags.kind !== undefined ? { kinds: flags.kind as never } : {}),
          ...(asOf ? { asOf } : {}),
          ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
          ...(flags.explain ? { explain: true } : {}),
          ...(flags.fusion !== undefined ? { fusion: flags.fusion as "rrf" | "weighted" } : {}),
        });
        print(res);
      } finally {
        closeIndexes();
        await embedder.embedder?.close?.();
      }
    });
}
