import type { Command } from "commander";
import type { EmbedderChoice } from "../../embed/types.js";
import type { SearchResponse } from "../../index/search.js";
import { displaySafe } from "../../markdown/display.js";
import { askWarmServer, intFlag, loadWorkspace, numberFlag, printJson, workspaceOption } from "../shared.js";

interface SearchFlags {
  workspace?: string;
  maxResults?: number;
  minScore?: number;
  provider?: string;
  json?: boolean;
}

export function formatSearch(res: SearchResponse): string {
  const out: string[] = [];
  for (const r of res.results) {
    out.push(`${r.path}:${r.startLine}-${r.endLine}  score ${r.score.toFixed(3)}`);
    const snippet = r.snippet.split("\n").slice(0, 6);
    for (const line of snippet) out.push(`    ${line}`);
    out.push("");
  }
  out.push(
    `${res.results.length} result${res.results.length === 1 ? "" : "s"} (provider: ${res.provider}${res.model ? ` ${res.model}` : ""})`,
  );
  if (res.fallback) out.push(`fallback: ${res.fallback}`);
  return out.join("\n");
}

export function registerSearch(program: Command): void {
  const cmd = program
    .command("search")
    .description("search the memory files (memory_search: hybrid BM25 + vectors, snippets with path and lines)")
    .argument("<query...>", "what to look for (exact ids, error strings and CJK text work)");
  workspaceOption(cmd)
    .option("--max-results <n>", "number of results (default: config search.maxResults, 6)", intFlag("--max-results"))
    .option(
      "--min-score <x>",
      "drop results scoring below x (default: config search.minScore, 0.35)",
      numberFlag("--min-score", 0, 1),
    )
    .option("--provider <name>", "embedding provider for this query: auto, local, openai, gemini, use, none")
    .option("--json", "print {results, provider, model, fallback} as JSON")
    .action(async (words: string[], flags: SearchFlags) => {
      const print = (res: SearchResponse) => {
        if (flags.json) printJson(res);
        else process.stdout.write(displaySafe(`${formatSearch(res)}\n`));
      };
      // A running `membank serve` answers without loading the index or a model here.
      const served = await askWarmServer<SearchResponse>(flags, {
        op: "search",
        query: words.join(" "),
        ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
        ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
        ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
      });
      if (served !== undefined) return print(served);
      const ws = await loadWorkspace(flags);
      const { search } = await import("../../index/search.js");
      const { closeIndexes } = await import("../../index/handles.js");
      // BM25-only is the latency-critical path: skip loading the embedding providers for it.
      const provider = flags.provider ?? ws.config.embedding.provider;
      const embedder: EmbedderChoice =
        provider === "none"
          ? { embedder: null, provider: "none" }
          : await (await import("../../embed/resolve.js")).resolveEmbedder(ws, { provider });
      try {
        const res = await search(ws, words.join(" "), {
          embedder,
          ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
          ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
        });
        print(res);
      } finally {
        closeIndexes();
        await embedder.embedder?.close?.();
      }
    });
}
