import { textPolarity } from "../analysis/cues.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { stemmedTokens } from "../analysis/tokens.js";
import type { IndexDb } from "../index/db.js";
import { readLines } from "../index/lines.js";
import { type FactRow, opinionAtLine } from "../index/queries.js";
import { factsAtLines, opinionFactTexts } from "../index/recall-queries.js";
import { citedLabels, citedSource } from "../markdown/citation.js";
import { logDate } from "../markdown/log-path.js";
import { ENTITY_DIR, OPINIONS_PAGE } from "../markdown/pages.js";
import { packageHelpLines } from "../reflect/templates.js";
import { findMentions } from "../retain/entities.js";
import { opinionCandidate } from "./opinions.js";
import type { Candidate, EvidenceRef } from "./types.js";

/** Building result candidates from index rows and line ranges (the queries live in src/index/). */

export function factCandidate(f: FactRow): Candidate {
  const c: Candidate = {
    key: `fact:${f.path}#${f.line}`,
    kind: f.kind,
    path: f.path,
    startLine: f.line,
    endLine: f.line,
    date: f.date,
    entities: f.entities,
    content: f.content,
    factId: f.id,
  };
  if (f.confidence !== null && f.kind === "opinion") c.confidence = f.confidence;
  return c;
}

/** A managed-region marker line of a bank page: bookkeeping, never shown in a result. */
const MARKER_LINE = /^\s*<!--\s*membank:/;

/**
 * A candidate for lines `from..to` of a file: the fact on `focus` when that line is a
 * Retain fact (a fact and its line are one result), the judged opinion when `focus` is
 * inside an opinion's region of bank/opinions.md, else a note with the lines (blank
 * lines inside kept, blank edges trimmed so the citation is tight; membank marker lines
 * of bank pages blanked, so they never show).
 */
export function linesCandidate(
  idx: IndexDb,
  path: string,
  from: number,
  to: number,
  focus: number,
): Candidate | undefined {
  const fact = factsAtLines(idx, path, focus, focus)[0];
  if (fact) return factCandidate(fact);
  if (path === OPINIONS_PAGE && focus >= 1) {
    const op = opinionAtLine(idx, path, focus);
    if (op) return opinionCandidate(op);
  }
  const bank = path.startsWith("bank/");
  // Marker lines and the templates' help text are how a bank page is kept, not what it says.
  const help = bank ? packageHelpLines() : undefined;
  const rows = readLines(idx, path, from, to).filter(
    (r) => !(bank && (MARKER_LINE.test(r.text) || help!.has(r.text.trim()))),
  );
  // A hit on help text is no answer, whatever lies around it.
  if (rows.length === 0 || (help !== undefined && focus >= from && focus <= to && !rows.some((r) => r.line === focus)))
    return undefined;
  const start = rows[0]!.line;
  const end = rows[rows.length - 1]!.line;
  const byLine = new Map(rows.map((r) => [r.line, r.text]));
  const lines: string[] = [];
  for (let l = start; l <= end; l++) lines.push(byLine.get(l) ?? "");
  const content = lines.join("\n");
  const c: Candidate = {
    // Keyed by the line it is centred on, so arms that found the same line fuse into one result.
    key: focus >= 1 ? `lines:${path}#${focus}` : `lines:${path}#${start}-${end}`,
    kind: "note",
    path,
    startLine: start,
    endLine: end,
    entities: findMentions(content),
    content,
  };
  const date = logDate(path);
  if (date) c.date = date;
  return c;
}

/**
 * The log line an entity page's line quotes: a "Mentioned in" or fact line of
 * `bank/entities/` is a copy of one log line (cut short) with its citation, so a question
 * it matches is answered by that line, not by the copy crowding it out of the top results.
 * Undefined when the line cites no single log or MEMORY.md line.
 */
export function quotedLogLine(idx: IndexDb, path: string, line: number): { path: string; line: number } | undefined {
  if (!path.startsWith(`${ENTITY_DIR}/`) || line < 1) return undefined;
  const text = readLines(idx, path, line, line)[0]?.text;
  return text && citedLabels(text).length === 1 ? citedSource(text) : undefined;
}

function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  // The line store's own analysis: "ships"/"shipping" agree as they do in search.
  for (const w of stemmedTokens(text)) if (w.length >= 3 && !STOP_WORDS.has(w)) out.add(w);
  return out;
}

/**
 * Evidence for an opinion from the index: other opinion facts about the same entities
 * that say nearly the same thing. A heuristic stance: one side negated -> contradict,
 * else support, negation read through the shared cues (analysis/cues.ts) exactly as
 * reflect's judge reads a restatement. Reflect's bank/opinions.md carries judged evidence when it exists.
 */
export function opinionEvidence(
  idx: IndexDb,
  opinion: Candidate,
  limit = 5,
  cache: Map<string, OpinionRow[]> = new Map(),
): EvidenceRef[] {
  if (opinion.entities.length === 0) return [];
  const mine = contentWords(opinion.content);
  const negated = textPolarity(opinion.content) < 0;
  const out: EvidenceRef[] = [];
  for (const f of opinionRows(idx, opinion.entities, cache)) {
    if (f.id === opinion.factId) continue;
    let shared = 0;
    for (const w of f.words) if (mine.has(w)) shared++;
    const jaccard = shared / Math.max(1, mine.size + f.words.size - shared);
    if (jaccard < 0.15 || shared < 2) continue;
    out.push({ source: `${f.path}#L${f.line}`, stance: f.negated !== negated ? "contradict" : "support" });
    if (out.length >= limit) break;
  }
  return out;
}

export interface OpinionRow {
  id: string;
  path: string;
  line: number;
  words: Set<string>;
  negated: boolean;
}

/** The newest 200 opinions about the entities, tokenised once per recall call (`cache`). */
function opinionRows(idx: IndexDb, entities: readonly string[], cache: Map<string, OpinionRow[]>): OpinionRow[] {
  const key = [...entities].sort().join("\u0000");
  let rows = cache.get(key);
  if (!rows) {
    rows = opinionFactTexts(idx, entities, 200).map((r) => ({
      id: r.id,
      path: r.path,
      line: r.line,
      words: contentWords(r.content),
      negated: textPolarity(r.content) < 0,
    }));
    cache.set(key, rows);
  }
  return rows;
}
