import { citeLine } from "../markdown/citation.js";
import { fmt2 } from "../markdown/opinions.js";
import type { Fact } from "../retain/types.js";
import { LETTER_BY_KIND } from "../retain/types.js";
import type { OpinionChange } from "./evolve.js";
import { cmp, messageText } from "./format.js";
import type { Conflict } from "./render.js";

/** What a reflect commit message is made of (a ReflectReport is one). */
export interface MessageInput {
  pagesWritten: string[];
  opinionsChanged: OpinionChange[];
  opinionsCreated: { statement: string; entities: string[]; initial: number; confidence: number }[];
  conflicts: Conflict[];
  noRetainNote?: string;
}

const MAX_LISTED_FACTS = 100;
/** Pages listed in a commit message; the commit itself shows them all. */
const MAX_LISTED_PAGES = 200;

/** One-line summary, then facts added, pages changed, confidence changes, conflicts. */
export function commitMessage(report: MessageInput, added: Fact[]): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  // The headline counts what the body lists, and only what there is (no "0 confidence changes").
  const head = [n(added.length, "new fact"), n(report.pagesWritten.length, "page")];
  if (report.opinionsChanged.length) head.push(n(report.opinionsChanged.length, "confidence change"));
  if (report.opinionsCreated.length) head.push(n(report.opinionsCreated.length, "new opinion"));
  const lines = [`reflect: ${head.join(", ")}`, ""];
  const who = (entities: string[]) => (entities.length ? `${entities.map((e) => `@${e}`).join(", ")}: ` : "");
  if (report.opinionsChanged.length) {
    lines.push("Confidence changes:");
    for (const c of report.opinionsChanged)
      lines.push(`- ${who(c.entities)}${messageText(c.statement)} ${fmt2(c.from)} -> ${fmt2(c.to)}`);
    lines.push("");
  }
  if (report.opinionsCreated.length) {
    lines.push("New opinions:");
    for (const o of report.opinionsCreated) {
      const moved = o.initial === o.confidence ? fmt2(o.confidence) : `${fmt2(o.initial)} -> ${fmt2(o.confidence)}`;
      lines.push(`- ${who(o.entities)}${messageText(o.statement)} (${moved})`);
    }
    lines.push("");
  }
  if (added.length) {
    lines.push("Facts added:");
    const sorted = [...added].sort(
      (a, b) => cmp(a.date, b.date) || cmp(a.source.path, b.source.path) || a.source.line - b.source.line,
    );
    for (const f of sorted.slice(0, MAX_LISTED_FACTS)) {
      lines.push(
        `- ${f.date} ${LETTER_BY_KIND[f.kind]} ${who(f.entities)}${messageText(f.content)} (${citeLine(f.source)})`,
      );
    }
    if (sorted.length > MAX_LISTED_FACTS) lines.push(`- ... and ${sorted.length - MAX_LISTED_FACTS} more`);
    lines.push("");
  }
  lines.push("Pages changed:");
  for (const p of report.pagesWritten.slice(0, MAX_LISTED_PAGES)) lines.push(`- ${p}`);
  if (report.pagesWritten.length > MAX_LISTED_PAGES)
    lines.push(`- ... and ${report.pagesWritten.length - MAX_LISTED_PAGES} more`);
  if (report.conflicts.length) {
    lines.push("", "Conflicts (human edits kept, not overwritten):");
    for (const c of report.conflicts.slice(0, MAX_LISTED_PAGES))
      lines.push(`- ${c.path} [${c.region}]: ${messageText(c.reason)}`);
  }
  if (report.noRetainNote) lines.push("", report.noRetainNote);
  return `${lines.join("\n").trimEnd()}\n`;
}
