import { citeLine } from "../markdown/citation.js";
/**
 * bank/proposals.md: durable knowledge proposed for MEMORY.md (membank never edits it).
 * Each proposal starts with a line a person can paste as it is; the why follows, indented.
 * What MEMORY.md already says, in any words, is not proposed again: a core line covers a
 * proposal when it names the same entity and holds most of its content words (the
 * matcher's analysis: stop words out, plurals folded). A core line that newer facts
 * contradict gets an update proposal.
 */
import { fmt2, type Opinion } from "../markdown/opinions.js";
import { PROPOSALS_PAGE } from "../markdown/pages.js";
import { entityFileStem } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import { cmp, relLink } from "./format.js";
import { contentTokens, negationCount } from "./text.js";

/** Proposals are a reading list, not an index: the strongest few of each kind. */
const MAX_PROPOSALS = 15;
const PAGE = PROPOSALS_PAGE;
/** Share of a proposal's content words a core line must hold to say the same thing. */
const COVERED = 0.5;
/** Share of a core line's content words (its entity aside) a newer fact must repeat to be about the same thing. */
const SAME_TOPIC = 0.5;

// Words that say a stated fact changed hands or ended ("Mara handed ledger-sync to Tomasz").
// negationCount covers "no longer", "not", "stopped", "cancelled"...
export const CHANGE_CUES =
  /\b(?:hand(?:s|ed)?\s+(?:over|off)|handed|hands|passed|stepp(?:ed|s)\s+down|left|leaves|replaced|took\s+over|takes\s+over|transferred|moved\s+(?:to|from)|switched|ended|quit)\b/i;

/** Does a fact say that something it stated changed hands, ended or is no longer so? */
export function carriesChange(content: string): boolean {
  return CHANGE_CUES.test(content) || negationCount(content) > 0;
}

/** Derives facts' change cues; fact-memo.ts keeps them across runs. */
export interface ChangeSource {
  /** The fact's content words when it carries a change cue, undefined when it does not. */
  changeTokens(fact: Fact): Set<string> | undefined;
}

const direct: ChangeSource = {
  changeTokens: (f) => (carriesChange(f.content) ? contentTokens(f.content) : undefined),
};

export interface ProposalRules {
  minConfidence: number;
  minDays: number;
  entityMinDays: number;
}

interface CoreLine {
  line: number;
  text: string;
  /** The text as names() compares it (folded once, not once per entity). */
  folded: string;
  tokens: Set<string>;
  /** A line often holds several facts ("leads ledger-sync; likes async updates"): each is checked on its own. */
  clauses: { text: string; tokens: Set<string> }[];
}

/** The lines of MEMORY.md that say something (headings and blank lines aside), with their content words. */
function coreLines(coreText: string): CoreLine[] {
  const out: CoreLine[] = [];
  coreText.split(/\r\n|\r|\n/).forEach((raw, i) => {
    // Headings count too: "## The Castle" names an entity.
    const text = raw
      .replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/, "")
      .replace(/\s+/g, " ")
      .trim();
    if (text === "") return;
    const clauses = text
      .split(/;\s+|\.\s+(?=\p{Lu})/u)
      .map((c) => c.trim())
      .filter(Boolean)
      .map((c) => ({ text: c, tokens: contentTokens(c) }));
    out.push({ line: i + 1, text, folded: folded(text), tokens: contentTokens(text), clauses });
  });
  return out;
}

/** How many distinct days, the first and the last (ten years of an entity's facts: no sort of thousands of dates). */
function daySpan(facts: readonly Fact[]): { count: number; first: string; last: string } {
  const days = new Set<string>();
  let first = "";
  let last = "";
  for (const f of facts) {
    if (days.size === 0 || f.date < first) first = f.date;
    if (days.size === 0 || f.date > last) last = f.date;
    days.add(f.date);
  }
  return { count: days.size, first, last };
}

/** "@The-Castle" is named by "the Castle" too: both sides lower-cased, dashes as spaces. */
const folded = (s: string) => s.toLowerCase().replace(/[-_]+/g, " ");

/** A letter or digit: what a whole word may not touch on either side. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The code point ending just before `i` (a surrogate pair read whole, as a `u` regex reads it). */
function pointBefore(text: string, i: number): string {
  if (i <= 0) return "";
  const cp = i >= 2 ? text.codePointAt(i - 2)! : 0;
  return cp > 0xffff ? text.slice(i - 2, i) : text[i - 1]!;
}

function pointAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/**
 * Does `text` hold `word` not inside a longer word (no letter or digit touching it)? By
 * indexOf and one shared test: a Unicode-class regex per name costs far more to compile than to run.
 */
export function hasWholeWord(text: string, word: string): boolean {
  let i = text.indexOf(word);
  while (i >= 0) {
    const insidePair = i > 0 && text.codePointAt(i - 1)! > 0xffff; // a `u` regex never starts a match there
    if (!insidePair && !WORD_CHAR.test(pointBefore(text, i)) && !WORD_CHAR.test(pointAt(text, i + word.length)))
      return true;
    const next = text.indexOf(word, i + 1);
    if (next <= i) break; // an empty word: indexOf stops at the end
    i = next;
  }
  return false;
}

function names(line: CoreLine, entity: string): boolean {
  const e = folded(entity);
  const text = line.folded;
  if (!text.includes(e)) return false; // most pairs: no word test needed
  if (text.includes(`@${e}`)) return true;
  return hasWholeWord(text, e);
}

function share(of: ReadonlySet<string>, inside: ReadonlySet<string>): number {
  if (of.size === 0) return 0;
  let n = 0;
  for (const t of of) if (inside.has(t)) n++;
  return n / of.size;
}

/** Does some core line already say this statement (about one of these entities), in any words? */
function alreadySaid(lines: CoreLine[], statement: string, entities: readonly string[]): boolean {
  const words = contentTokens(statement);
  return lines.some(
    (l) =>
      (entities.length === 0 || entities.some((e) => names(l, e))) &&
      (l.text.toLowerCase().includes(statement.toLowerCase()) || share(words, l.tokens) >= COVERED),
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A core line's statement and the newest fact that contradicts it. */
interface Update {
  line: number;
  said: string;
  fact: Fact;
  entity: string;
}

/**
 * Core statements that newer facts contradict: a fact of an entity the line names, about the
 * same thing (most of the statement's other words), carrying a change or negation cue.
 */
function updates(lines: CoreLine[], factsByEntity: Map<string, Fact[]>, source: ChangeSource): Update[] {
  const out: Update[] = [];
  // Few facts carry a change cue: only those are tokenized (and fact-memo.ts keeps both across
  // runs), and only those are compared with each clause. Beliefs are the opinions page's business.
  const changing = new Map<string, { fact: Fact; tokens: Set<string> }[]>();
  const changesOf = (entity: string, facts: readonly Fact[]) => {
    let list = changing.get(entity);
    if (list === undefined) {
      list = [];
      for (const fact of facts) {
        if (fact.kind === "opinion") continue;
        const tokens = source.changeTokens(fact);
        if (tokens !== undefined) list.push({ fact, tokens });
      }
      changing.set(entity, list);
    }
    return list;
  };
  for (const core of lines) {
    let best: Update | undefined;
    for (const [entity, facts] of factsByEntity) {
      if (!names(core, entity)) continue;
      const own = contentTokens(entity);
      for (const clause of core.clauses) {
        const topic = new Set([...clause.tokens].filter((t) => !own.has(t)));
        if (topic.size === 0) continue;
        for (const { fact, tokens } of changesOf(entity, facts)) {
          if (share(topic, tokens) < SAME_TOPIC) continue;
          if (!best || fact.date > best.fact.date || (fact.date === best.fact.date && fact.id > best.fact.id))
            best = { line: core.line, said: clause.text, fact, entity };
        }
      }
    }
    if (best) out.push(best);
  }
  return out;
}

/**
 * Durable knowledge proposed for MEMORY.md: opinions with high confidence supported on
 * several days and entities mentioned on many days, minus what MEMORY.md already says;
 * and updates of MEMORY.md lines that newer facts contradict.
 */
export function proposalsBody(
  opinions: Opinion[],
  factsByEntity: Map<string, Fact[]>,
  rules: ProposalRules,
  coreText: string,
  source: ChangeSource = direct,
): string {
  const lines = coreLines(coreText);
  const ops = opinions
    .filter((op) => op.confidence >= rules.minConfidence)
    .map((op) => {
      const days = [...new Set(op.evidence.filter((e) => e.stance === "support").map((e) => e.date))].sort();
      return { op, days };
    })
    .filter(({ op, days }) => days.length >= rules.minDays && !alreadySaid(lines, op.statement, op.entities))
    .sort((a, b) => b.op.confidence - a.op.confidence || cmp(a.op.id, b.op.id));
  const ents = [...factsByEntity]
    .map(([slug, facts]) => ({ slug, days: daySpan(facts) }))
    .filter(({ slug, days }) => days.count >= rules.entityMinDays && !lines.some((l) => names(l, slug)))
    .sort((a, b) => b.days.count - a.days.count || cmp(a.slug, b.slug));
  const out = ["### Opinions", ""];
  if (ops.length === 0) out.push("None yet.");
  for (const { op, days } of ops.slice(0, MAX_PROPOSALS)) {
    const who = op.entities.length ? `${op.entities.map((e) => `@${e}`).join(", ")}: ` : "";
    out.push(
      `- ${who}${op.statement}`,
      `  - why: confidence ${fmt2(op.confidence)}, supported on ${plural(days.length, "day")} (${days[0]} … ${days[days.length - 1]}), \`${op.id}\``,
    );
  }
  if (ops.length > MAX_PROPOSALS) out.push(`- ... and ${ops.length - MAX_PROPOSALS} more`);
  out.push("", "### Entities", "");
  if (ents.length === 0) out.push("None yet.");
  for (const { slug, days } of ents.slice(0, MAX_PROPOSALS)) {
    out.push(
      `- @${slug} — mentioned on ${plural(days.count, "day")} (${days.first} … ${days.last}): [${slug}](entities/${encodeURIComponent(entityFileStem(slug))}.md)`,
    );
  }
  if (ents.length > MAX_PROPOSALS) out.push(`- ... and ${ents.length - MAX_PROPOSALS} more`);
  const ups = updates(lines, factsByEntity, source);
  if (ups.length > 0) {
    out.push("", "### Updates", "");
    for (const { line, said, fact, entity } of ups.slice(0, MAX_PROPOSALS)) {
      const text = fact.content.replace(/\s+/g, " ").trim();
      out.push(
        `- MEMORY.md line ${line} says: ${said}`,
        `  - newer: ${fact.date} @${entity}: ${text} ([${citeLine(fact.source)}](${relLink(PAGE, fact.source)}))`,
        `  - paste instead: ${entity}: ${text} (since ${fact.date})`,
      );
    }
    if (ups.length > MAX_PROPOSALS) out.push(`- ... and ${ups.length - MAX_PROPOSALS} more`);
  }
  return `${out.join("\n")}\n`;
}
