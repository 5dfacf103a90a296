import { readFileSync } from "node:fs";
import path from "node:path";
import { cjkWords } from "../analysis/tokens.js";
import type { Embedder } from "../embed/types.js";
import { dot } from "../embed/vector.js";
import type { IndexDb } from "../index/db.js";
import { buildMatchQuery, cjkTerms } from "../index/fts.js";
import { hasLines, readLines } from "../index/lines.js";
import {
  bm25Facts,
  chunksByDates,
  chunksByIds,
  type EntityRow,
  hasOpinions,
  trigramChunks,
  vectorKnn,
} from "../index/queries.js";
import { factsInWindowLean, factsOfEntities, withEntities } from "../index/recall-queries.js";
import { frontMatterLineCount } from "../markdown/frontmatter.js";
import { cmp } from "../markdown/links.js";
import { logDate } from "../markdown/log-path.js";
import { byPlace, byScoreThenPlace, type Place } from "../markdown/order.js";
import { ENTITY_DIR, NO_FACTS_HEADLINE, OPINIONS_PAGE } from "../markdown/pages.js";
import { entityKey } from "../retain/entities.js";
import { factCandidate, linesCandidate, quotedLogLine } from "./candidates.js";
import { addDays } from "./days.js";
import { withHeadingContext } from "./headings.js";
import type { Intent, LexicalTerm } from "./intent.js";
import { type LineRankOptions, rescoreLines } from "./linerank.js";
import { byLineScore, type LineHit, searchCjkLines, searchLines } from "./lines.js";
import { pageOpinionItems } from "./opinions.js";
import type { RecallPlan } from "./plan.js";
import { isoDay, monthBounds, overlapsWindow, reportedWindow } from "./timewindow.js";
import type { ArmList, Candidate } from "./types.js";
import { buildWindows, DEFAULT_WINDOW, type WindowOptions } from "./windows.js";

/** Everything an arm may look at. */
export interface ArmContext {
  root: string;
  idx: IndexDb;
  query: string;
  intent: Intent;
  /** Words for the lexical searches: without the names of entities the entity arm covers. */
  lexTerms: LexicalTerm[];
  /** Candidates each arm returns at most. */
  pool: number;
  window: WindowOptions;
  lineRank: LineRankOptions;
  since?: string;
  until?: string;
  /** "Today" (YYYY-MM-DD): open windows end here. */
  asOf: string;
  plan: RecallPlan;
  /** The index's entities (listEntities). */
  entities: EntityRow[];
  /** The question's best lexical line hits, best first: computed once, for whichever arm asks first. */
  lexicalLines: () => LineHit[];
  /** The vector arm's embedder (cached), when the index has vectors for it. */
  embedder?: Embedder;
}

/** A candidate's place: its first line; its key tells apart a fact from the lines around it. */
export function candidatePlace(c: Candidate): Place {
  return { path: c.path, line: c.startLine, id: c.key };
}

const factPlace = (f: { path: string; line: number; id: string }): Place => ({ path: f.path, line: f.line, id: f.id });

/** Best arm item first; ties by place. */
export const byItemScore = byScoreThenPlace<{ cand: Candidate; score: number }>(
  (i) => i.score,
  (i) => candidatePlace(i.cand),
);

function termsQuery(terms: readonly LexicalTerm[]): string | null {
  return buildMatchQuery(terms.map((t) => t.text).join(" "));
}

export function windowsToItems(ctx: ArmContext, hits: LineHit[], max: number): ArmList["items"] {
  const items: ArmList["items"] = [];
  for (const w of buildWindows(hits, { ...ctx.window, max })) {
    const quoted = quotedLogLine(ctx.idx, w.path, w.line);
    let cand: Candidate | undefined;
    if (quoted) {
      // The quoted log line stands in for the page's copy, unless the question's dates exclude its log.
      const date = logDate(quoted.path);
      const inRange = !date || ((!ctx.since || date >= ctx.since) && (!ctx.until || date <= ctx.until));
      if (!inRange) continue;
      cand = linesCandidate(ctx.idx, quoted.path, quoted.line, quoted.line, quoted.line);
    }
    cand ??= linesCandidate(ctx.idx, w.path, w.startLine, w.endLine, w.line);
    if (cand) items.push({ cand, score: w.score });
  }
  return items;
}

/** The question's lexical line hits: BM25 over single lines (porter-stemmed) and CJK words, re-scored (linerank.ts), best first. */
export function lexicalLineHits(ctx: Omit<ArmContext, "lexicalLines">): LineHit[] {
  const range: { since?: string; until?: string } = {};
  if (ctx.since) range.since = ctx.since;
  if (ctx.until) range.until = ctx.until;
  const t = ctx.plan.tuning;
  const limit = Math.max(t.minLexicalLines, ctx.pool * t.lexicalLinesPerPool);
  const hits = withHeadingContext(
    ctx.idx,
    searchLines(ctx.idx, ctx.lexTerms, { limit, ...range }).filter((h) => !isPageHeading(h)),
  );
  hits.push(...cjkHits(ctx).filter((h) => !hits.some((x) => x.path === h.path && x.line === h.line)));
  return rescoreLines(hits, ctx.query, ctx.lineRank).sort(byLineScore);
}

/**
 * A heading of an entity page ("# Ben", "## Facts"): it names what the lines under it say,
 * and as a result it shows a title and the page's front matter. The lines under it are
 * found on their own. So is the headline of a page with no facts ("@Ben: no facts yet;
 * named on 3 lines of 2 logs, first ..., last ..."): a count whose words ("last", "first",
 * the name) match any question about Ben, above the lines that say something.
 */
function isPageHeading(h: LineHit): boolean {
  return h.path.startsWith(`${ENTITY_DIR}/`) && (/^\s{0,3}#{1,6}\s/.test(h.text) || NO_FACTS_HEADLINE.test(h.text));
}

/** Lexical: the question's best lines, grouped into small windows. */
export function linesArm(ctx: ArmContext, weight: number): ArmList {
  return { arm: "lexical", weight, items: windowsToItems(ctx, ctx.lexicalLines(), ctx.pool) };
}

/**
 * Lines with the query's CJK words (unicode61 cannot find a word inside a CJK run): the
 * index's trigram table finds the chunks, then their lines are checked; 1-2 character
 * words fall back to a capped scan of the lines.
 */
function cjkHits(ctx: Omit<ArmContext, "lexicalLines">): LineHit[] {
  const terms = cjkTerms(ctx.query);
  if (!terms.trigram && terms.short.length === 0) return [];
  if (!terms.trigram || !ctx.idx.fts) return searchCjkLines(ctx.idx, ctx.query);
  const runs = cjkWords(ctx.query).filter((w) => [...w].length >= 3);
  const out: LineHit[] = [];
  for (const hit of trigramChunks(ctx.idx, { trigram: terms.trigram }, 20)) {
    const c = hit.row;
    for (const l of readLines(ctx.idx, c.path, c.startLine, c.endLine)) {
      const n = runs.filter((r) => l.text.includes(r)).length;
      if (n === 0 || out.some((o) => o.path === c.path && o.line === l.line)) continue;
      out.push({ path: c.path, line: l.line, text: l.text, score: n, ...(c.date ? { date: c.date } : {}) });
    }
  }
  return out.sort(byLineScore);
}

/** Lexical over Retain facts (the index's facts_fts). */
export function factsArm(ctx: ArmContext, weight: number): ArmList {
  const hits = bm25Facts(ctx.idx, termsQuery(ctx.lexTerms), ctx.pool);
  return { arm: "facts", weight, items: hits.map((h) => ({ cand: factCandidate(h.row), score: h.score })) };
}

/** The summary of an entity page: the first paragraph of prose after the title (and front matter). */
export function entityPageSummary(root: string, row: EntityRow): Candidate | undefined {
  if (!row.page) return undefined;
  let text: string;
  try {
    text = readFileSync(path.join(root, row.page), "utf8");
  } catch {
    return undefined;
  }
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = frontMatterLineCount(lines.join("\n"));
  // Skip the title, blank lines and region markers to the first block of prose or list.
  while (i < lines.length && (/^\s*(#|<!--)/.test(lines[i]!) || lines[i]!.trim() === "")) i++;
  const start = i;
  while (i < lines.length && lines[i]!.trim() !== "" && !/^\s*(#|<!--)/.test(lines[i]!) && i - start < 8) i++;
  if (i === start) return undefined;
  return {
    key: `lines:${row.page}#${start + 1}-${i}`,
    kind: "note",
    path: row.page,
    startLine: start + 1,
    endLine: i,
    entities: [row.slug],
    content: lines.slice(start, i).join("\n"),
  };
}

/** Entity: the page summary, then the entity's facts newest first. */
export function entityArm(ctx: ArmContext, entities: EntityRow[], weight: number): ArmList {
  const items: ArmList["items"] = [];
  const wanted = ctx.intent.entities;
  // Case variants (@Peter, @PETER) are one entity: its page, and the facts of every spelling.
  // (A page's row may be named by its H1 only: `CON~1143da2bc5.md` is `# CON`.)
  const variants = (slug: string) =>
    entities.filter((e) => entityKey(e.slug) === entityKey(slug) || entityKey(e.name) === entityKey(slug));
  for (const slug of wanted) {
    const row = variants(slug).sort(
      (a, b) => Number(b.page !== null) - Number(a.page !== null) || cmp(a.slug, b.slug),
    )[0];
    const page = row && entityPageSummary(ctx.root, row);
    // A page with no facts opens with a count, no answer: its quoted lines speak for it (lexical arm).
    if (page && !NO_FACTS_HEADLINE.test(page.content)) items.push({ cand: page, score: 1 });
  }
  // Facts about all the named entities first ("Priya and Noor"), each group newest first.
  const keys = wanted.map(entityKey);
  const all = (f: { entities: string[] }) => keys.every((w) => f.entities.some((e) => entityKey(e) === w));
  const spellings = [...new Set([...wanted, ...wanted.flatMap((w) => variants(w).map((e) => e.slug))])];
  const found = factsOfEntities(ctx.idx, spellings, ctx.pool);
  const facts = [...found.filter(all), ...found.filter((f) => !all(f))];
  facts.forEach((f, i) => {
    items.push({ cand: factCandidate(f), score: 1 - i / (facts.length + 1) });
  });
  return { arm: "entity", weight, items };
}

/** The weight of a line written just after a time window, relative to one inside it. */
const LATER_REPORT = 0.5;

/** Time: facts overlapping the window, newest first (lexical matches ahead), and the matching lines of those days. */
export function timeArm(ctx: ArmContext, weight: number): ArmList {
  const w = ctx.intent.window;
  if (!w) return { arm: "time", weight, items: [] };
  const from = w.from ?? "0000-01-01";
  const to = w.to ?? "9999-12-31";
  const words = ctx.intent.terms.map((t) => t.text.toLowerCase());
  const facts = factsInWindowLean(ctx.idx, from, to, 1000).map((f) => {
    const text = f.content.toLowerCase();
    const overlap = words.filter((x) => text.includes(x)).length;
    return { f, overlap };
  });
  // A bounded window ranks by closeness to its middle ("around March 12"), an open or vague one by recency.
  const mid = w.from && w.to && !w.vague ? (Date.parse(w.from) + Date.parse(w.to)) / 2 : undefined;
  const distance = (d: string) => (mid === undefined ? -Date.parse(d) : Math.abs(Date.parse(d) - mid));
  facts.sort(
    (a, b) =>
      b.overlap - a.overlap ||
      distance(a.f.date) - distance(b.f.date) ||
      cmp(b.f.date, a.f.date) ||
      byPlace(factPlace(a.f), factPlace(b.f)),
  );
  const kept = facts.slice(0, ctx.pool);
  withEntities(
    ctx.idx,
    kept.map((x) => x.f),
  );
  const items: ArmList["items"] = kept.map(({ f, overlap }, i) => ({
    cand: factCandidate(f),
    score: overlap + 1 - i / (facts.length + 1),
  }));
  let lineHits = 0;
  if (ctx.intent.terms.length > 0) {
    // A part of a month ("late April"): the rest of the month too, worth less than the part's days.
    const span = monthBounds(w);
    const until = reportedWindow(span, ctx.plan.profile.reportLagDays).to ?? to;
    const hits = searchLines(ctx.idx, ctx.lexTerms, { limit: 200, since: span.from ?? from, until });
    // A later day's line may report the window's events ("yesterday I ..."): worth less than the days' own.
    for (const h of hits) if (h.date && (h.date > to || h.date < from)) h.score *= LATER_REPORT;
    lineHits = hits.length;
    items.push(...windowsToItems(ctx, hits, ctx.pool));
  }
  if (lineHits === 0) {
    // "What happened yesterday?", and "what did we eat on Ascension day?" when no line of the
    // day says "eat": the days' notes themselves, newest day first.
    const dates: string[] = [];
    // biome-ignore lint/complexity/useMathMinMax: these are YYYY-MM-DD strings, not numbers
    const last = to < ctx.asOf ? to : ctx.asOf;
    for (let d = new Date(`${last}T00:00:00Z`); dates.length < 7; ) {
      const day = isoDay(d);
      if (day < from) break;
      dates.push(day);
      d = addDays(d, -1);
    }
    let byDay = chunksByDates(ctx.idx, dates);
    // No notes on the named days ("the last bank holiday", a day off): the next days' notes,
    // which report it ("bank holiday yesterday, did nothing"), worth less.
    let later = 1;
    if (byDay.length === 0 && last === to) {
      const next = [1, 2].map((n) => isoDay(addDays(new Date(`${to}T00:00:00Z`), n)));
      byDay = chunksByDates(
        ctx.idx,
        next.filter((d) => d <= ctx.asOf),
      );
      dates.push(...next);
      later = LATER_REPORT;
    }
    byDay.sort(
      (a, b) =>
        cmp(b.date ?? "", a.date ?? "") ||
        byPlace({ path: a.path, line: a.startLine, id: "" }, { path: b.path, line: b.startLine, id: "" }),
    );
    for (const c of byDay) {
      const cand = linesCandidate(ctx.idx, c.path, c.startLine, c.endLine, -1);
      // Newer days a little ahead (fusion would otherwise order equal scores by path).
      if (cand) items.push({ cand, score: later * (0.5 - 0.01 * dates.indexOf(c.date!)) });
    }
  }
  return { arm: "time", weight, items };
}

const OPINION_WORD = /^(prefers?|think|thinks|believes?|opinions?|feel|feels|like|likes|still|view|views|stance)$/;

/**
 * Opinion: reflect's judged opinions (bank/opinions.md in the index) when there are any,
 * each with its current confidence and evidence; else the opinion facts of the logs.
 */
export function opinionArm(ctx: ArmContext, weight: number): ArmList {
  // Match opinions on what they are about, not on the holder's name: "Mara" alone would
  // pull in every opinion of Mara's.
  const content = ctx.intent.contentTerms;
  const match = buildMatchQuery(content.map((t) => t.text).join(" "));
  const lexical = bm25Facts(ctx.idx, match, ctx.pool).filter((h) => h.row.kind === "opinion");
  // "What does Jonas think?": no topic given, so the holder's opinions.
  const holderOnly = ctx.intent.entities.length > 0 && content.every((t) => OPINION_WORD.test(t.text));
  const bonus = (entities: string[]) => (ctx.intent.entities.some((e) => entities.includes(e)) ? 1 : 0);

  const seen = new Set<string>();
  const scored: { cand: Candidate; score: number }[] = [];
  const add = (cand: Candidate, score: number) => {
    if (seen.has(cand.key)) return;
    seen.add(cand.key);
    scored.push({ cand, score });
  };
  if (hasOpinions(ctx.idx)) {
    const facts = lexical.map((h) => ({ factId: h.row.id, score: h.score + bonus(h.row.entities) }));
    for (const item of pageOpinionItems(ctx.idx, match, ctx.intent.entities, holderOnly, facts, ctx.pool)) {
      add(item.cand, item.score);
    }
    // Opinion facts reflect has not filed yet (logged since its last run) still count.
    for (const h of lexical) add(factCandidate(h.row), h.score + bonus(h.row.entities));
    return { arm: "opinion", weight, items: scored.sort(byItemScore).slice(0, ctx.pool) };
  }
  for (const h of lexical) add(factCandidate(h.row), h.score + bonus(h.row.entities));
  if (holderOnly) {
    for (const f of factsOfEntities(ctx.idx, ctx.intent.entities, ctx.pool, "opinion")) add(factCandidate(f), 0.5);
  }
  const items = scored.sort(byItemScore).slice(0, ctx.pool);
  // Reflect's page without judged opinions in the index (its regions do not parse): its
  // lines. Asked only when the page exists: the search ranks every line with the words.
  if (hasLines(ctx.idx, OPINIONS_PAGE)) {
    const page = searchLines(ctx.idx, ctx.intent.terms, { limit: 20, paths: [OPINIONS_PAGE] });
    items.push(...windowsToItems(ctx, page, 5));
  }
  return { arm: "opinion", weight, items };
}

/**
 * Vector: semantic similarity at line level. Candidates are the lexical arm's best lines
 * (a semantic re-ranking of them) plus every line of the nearest chunks by embedding (what
 * shares no word with the question); each is embedded through the cache and ranked by
 * cosine to the question, then grouped into the same windows as the lexical arm.
 */
export async function vectorArm(
  ctx: ArmContext,
  embedder: Embedder,
  weight: number,
  opts: { lexical: number; chunks: number } = { lexical: 40, chunks: 4 },
): Promise<ArmList> {
  const [qv] = await embedder.embed([ctx.query]);
  if (!qv) return { arm: "vector", weight, items: [] };
  const hits = vectorKnn(ctx.idx, qv, opts.chunks);
  const chunks = chunksByIds(
    ctx.idx,
    hits.map((h) => h.id),
  );
  const lines = new Map<string, { path: string; line: number; text: string }>();
  // The lexical arm's best lines, when the question is a lexical one (a semantic re-ranking of them).
  const lexical = ctx.plan.lexical ? ctx.lexicalLines() : [];
  for (const h of lexical.slice(0, opts.lexical)) lines.set(`${h.path}#${h.line}`, h);
  for (const c of chunks) {
    for (const l of readLines(ctx.idx, c.path, c.startLine, c.endLine)) {
      if (!/[\p{L}\p{N}]/u.test(l.text) || /^\s*#/.test(l.text)) continue; // headings and rules say little
      lines.set(`${c.path}#${l.line}`, { path: c.path, line: l.line, text: l.text });
    }
  }
  const list = [...lines.values()];
  const vecs = list.length > 0 ? await embedder.embed(list.map((l) => l.text)) : [];
  const lineHits: LineHit[] = [];
  list.forEach((l, i) => {
    const v = vecs[i];
    if (v) lineHits.push({ ...l, score: Math.max(0, dot(qv, v)) });
  });
  lineHits.sort(byLineScore);
  return { arm: "vector", weight, items: windowsToItems(ctx, lineHits, ctx.pool) };
}

/** Should a candidate pass the hard filters (explicit since/until)? */
export function inRange(c: Candidate, since?: string, until?: string): boolean {
  if (!since && !until) return true;
  if (!c.date) return false;
  const w: { from?: string; to?: string } = {};
  if (since) w.from = since;
  if (until) w.to = until;
  return overlapsWindow(w, c.date);
}

export { DEFAULT_WINDOW };
