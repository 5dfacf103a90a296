import type { Command } from "commander";
import { displaySafe } from "../../markdown/display.js";
import type { Diagnostic, Fact } from "../../retain/types.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface FactsFlags {
  workspace?: string;
  since?: string;
  json?: boolean;
  strict?: boolean;
}

const LETTER: Record<Fact["kind"], string> = { world: "W", experience: "B", opinion: "O", observation: "S" };

function truncate(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join("")}…`;
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - [...text].length));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A compact aligned table: date, kind letter, confidence, entities, content, path:line. */
export function formatFactsTable(facts: Fact[], contentWidth = 64): string {
  const rows = facts.map((f) => [
    f.date,
    LETTER[f.kind] + (f.extracted ? "*" : ""),
    f.confidence === undefined ? "-" : f.confidence.toFixed(2),
    truncate(f.entities.join(","), 24) || "-",
    truncate(f.content, contentWidth),
    `${f.source.path}:${f.source.line}`,
  ]);
  const header = ["DATE", "K", "C", "ENTITIES", "CONTENT", "SOURCE"];
  const widths = header.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...r[i]!].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

function formatDiagnostic(d: Diagnostic): string {
  return `${d.path}:${d.line}: ${d.reason}`;
}

export function registerFacts(program: Command): void {
  const cmd = program
    .command("facts")
    .description("parse the Retain sections of the daily logs and print their facts (and every malformed line)");
  workspaceOption(cmd)
    .option("--since <date>", "only logs dated on or after DATE (YYYY-MM-DD, or an age like 7d / 2w)")
    .option("--json", "print {facts, diagnostics, logsWithoutRetain} as JSON")
    .option("--strict", "exit 1 when any line is malformed")
    .action(async (flags: FactsFlags) => {
      const { noRetainNote, parseSinceDate, readFacts } = await import("../../retain/index.js");
      const ws = await loadWorkspace(flags);
      const { workspaceDay } = await import("../../workspace/clock.js");
      const since = flags.since === undefined ? undefined : parseSinceDate(flags.since, workspaceDay(ws, new Date()));
      const result = await readFacts(ws, since === undefined ? {} : { since });
      if (flags.json) {
        printJson({ facts: result.facts, diagnostics: result.diagnostics, logsWithoutRetain: result.noRetain });
      } else {
        const out: string[] = [];
        if (result.facts.length > 0) out.push(formatFactsTable(result.facts), "");
        const extracted = result.facts.some((f) => f.extracted) ? " (* = extracted by the LLM)" : "";
        out.push(
          `${plural(result.facts.length, "fact")} from ${plural(result.files, "daily log")}, ` +
            `${plural(result.diagnostics.length, "diagnostic")}${extracted}`,
        );
        const missing = noRetainNote(result.noRetain, result.files, { llm: ws.config.llm.provider !== "none" });
        if (missing) out.push(missing);
        process.stdout.write(displaySafe(`${out.join("\n")}\n`));
        for (const d of result.diagnostics) process.stderr.write(displaySafe(`${formatDiagnostic(d)}\n`));
      }
      if (flags.strict && result.diagnostics.length > 0) process.exitCode = 1;
    });
}
