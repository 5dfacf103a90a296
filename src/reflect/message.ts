import { citeLine } from "../markdown/citation.js";
import { fmt2 } from "../markdown/opinions.js";
import { byPlace } from "../markdown/order.js";
import type { Fact } from "../retain/types.js";
import { LETTER_BY_KIND } from "../retain/types.js";
import type { OpinionChange } from "./evolve.js";
import { cmp, factPlace, messageText } from "./format.js";
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
/** Pages (and files) listed in a commit message; the commit itself shows them all. */
const MAX_LISTED_PAGES = 200;

const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const who = (entities: string[]) => (entities.length ? `${entities.map((e) => `@${e}`).join(", ")}: ` : "");

/** One confidence change as a line: `@Jonas: ledger-sync ships in March 0.80 -> 0.66`. */
export function changeLine(c: { entities: string[]; statement: string; from: number; to: number }): string {
  return `${who(c.entities)}${messageText(c.statement)} ${fmt2(c.from)} -> ${fmt2(c.to)}`;
}

/** The headline's counts: only what there is (no "0 confidence changes"), and what the body lists. */
function headline(report: MessageInput, added: number, sessionMessages = 0): string {
  const head = [n(added, "new fact"), n(report.pagesWritten.length, "page")];
  if (report.opinionsChanged.length) head.push(n(report.opinionsChanged.length, "confidence change"));
  if (report.opinionsCreated.length) head.push(n(report.opinionsCreated.length, "new opinion"));
  if (sessionMessages) head.push(n(sessionMessages, "session message"));
  return head.join(", ");
}

/** What a nightly run adds to reflect's message: the day, the sessions it ingested, every file it commits. */
export interface RunMessageInput {
  day: string;
  /** Reflect's report (undefined when the run stopped before reflect). */
  reflect?: MessageInput & { factsAdded: number; message: string };
  sessions?: { messages: number; sessionsIngested: number; days: string[] };
  files: string[];
}

/** The nightly's commit message: its headline, the sessions line, reflect's body, the files committed. */
export function runCommitMessage(run: RunMessageInput): string {
  const rep = run.reflect ?? {
    pagesWritten: [],
    opinionsChanged: [],
    opinionsCreated: [],
    conflicts: [],
    factsAdded: 0,
    message: "",
  };
  const ing = run.sessions;
  const body: string[] = [];
  if (ing && ing.days.length > 0)
    body.push(`Sessions: ${ing.messages} messages from ${ing.sessionsIngested} sessions (${ing.days.join(", ")})`);
  // Reflect's own message (new opinions, confidence changes, facts added, pages), without its headline.
  const reflectBody = rep.message.split("\n").slice(1).join("\n").trim();
  if (reflectBody) body.push("", reflectBody);
  body.push("", "Files:");
  for (const f of run.files.slice(0, MAX_LISTED_PAGES)) body.push(`- ${f}`);
  if (run.files.length > MAX_LISTED_PAGES) body.push(`- ... and ${run.files.length - MAX_LISTED_PAGES} more`);
  const head = `membank nightly ${run.day}: ${headline(rep, rep.factsAdded, ing?.messages ?? 0)}`;
  return `${head}\n\n${body.join("\n").replace(/^\n+/, "")}\n`;
}

/** Earlier runs' messages listed in one commit; the commit itself shows every change. */
const MAX_EARLIER_RUNS = 10;

/** A run's message without its file list: what is kept of a run whose commit did not go through. */
export function earlierRunText(message: string): string {
  return message.replace(/\n+Files:\n(?:- [^\n]*(?:\n|$))*$/, "").trimEnd();
}

/**
 * The message of a commit that also holds pages of earlier runs whose commit did not go
 * through (a lock, a hook, a kill): their own messages follow, so `git log` still says what
 * each change is, not "0 new facts, 0 pages" over a commit of pages.
 */
export function withEarlierRuns(message: string, earlier: readonly string[]): string {
  if (earlier.length === 0) return message;
  const nl = message.indexOf("\n");
  const head = nl < 0 ? message : message.slice(0, nl);
  const body = nl < 0 ? "" : message.slice(nl + 1).trim();
  const runs = n(earlier.length, "earlier run");
  const out = [`${head}; with the changes of ${runs} whose commit did not go through`, ""];
  if (body) out.push(body, "");
  const shown = earlier.slice(-MAX_EARLIER_RUNS);
  if (earlier.length > shown.length) out.push(`(${earlier.length - shown.length} older runs not listed)`, "");
  for (const e of shown) out.push("Not committed by an earlier run, committed now:", "", e, "");
  return `${out.join("\n").trimEnd()}\n`;
}

/** One-line summary, then facts added, pages changed, confidence changes, conflicts. */
export function commitMessage(report: MessageInput, added: Fact[]): string {
  const lines = [`reflect: ${headline(report, added.length)}`, ""];
  if (report.opinionsChanged.length) {
    lines.push("Confidence changes:");
    for (const c of report.opinionsChanged) lines.push(`- ${changeLine(c)}`);
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
    const sorted = [...added].sort((a, b) => cmp(a.date, b.date) || byPlace(factPlace(a), factPlace(b)));
    for (const f of sorted.slice(0, MAX_LISTED_FACTS)) {
      lines.push(
        `- ${f.date} ${LETTER_BY_KIND[f.kind]} ${who(f.entities)}${messageText(f.content)} (${citeLine(f.source)})`,
      );
    }
    if (sorted.length > MAX_LISTED_FACTS) lines.push(`- ... and ${sorted.length - MAX_LISTED_FACTS} more`);
    lines.push("");
  }
  if (report.pagesWritten.length) lines.push("Pages changed:");
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
