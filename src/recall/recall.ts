import { hasCjk, nameWords } from "../analysis/tokens.js";
import { createCachedEmbedder } from "../embed/cache.js";
import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { indexFile } from "../index/db.js";
import { vectorArmPlan } from "../index/embedpass.js";
import { acquireIndex } from "../index/handles.js";
import { hasOpinions, listEntities, newestLogDay } from "../index/queries.js";
import { syncIndex } from "../index/sync.js";
import { isIsoDate } from "../markdown/log-path.js";
import type { FactKind } from "../retain/types.js";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";
import { type ArmContext, entityArm, factsArm, inRange, linesArm, opinionArm, timeArm, vectorArm } from "./arms.js";
import { opinionEvidence } from "./candidates.js";
import { DEFAULT_FUSE, dedupe, type Fused, type FusionMethod, fuse, sortFused } from "./fuse.js";
import { understandQuery } from "./intent.js";
import { DEFAULT_LINE_RANK, type LineRankOptions } from "./linerank.js";
import { hasLineStore } from "./lines.js";
import { absorbIntoPageOpinions, pageEvidenceForFact } from "./opinions.js";
import { fitBudget, toResult } from "./shape.js";
import { findEntityByName } from "./text.js";
import { anchorVague, isoDay, overlapsWindow, reportedWindow } from "./timewindow.js";
import type { ArmList, RecallResponse, ResultKind } from "./types.js";
import { DEFAULT_WINDOW, type WindowOptions } from "./windows.js";

export interface RecallOptions {
  /** Results wanted (default config recall.k). */
  k?: number;
  /** Hard date filters, YYYY-MM-DD (undated files are then left out). */
  since?: string;
  until?: string;
  /** Only results about this entity (also treated as named in the query). */
  entity?: string;
  /** Only these result kinds. */
  kinds?: ResultKind[];
  /** Token budget of all results together (default config recall.budgetTokens). */
  budgetTokens?: number;
  /** "Today" for relative time phrases (default now). */
  asOf?: Date;
  /** Add to each result the arms that found it, with ranks and scores. */
  explain?: boolean;
  /**
   * The vector arm's embedder; without one recall is BM25 + structure. Only the question
   * (and the candidate lines, through the cache) is embedded: the arm runs over the chunk
   * vectors `membank index` made, and is skipped with a note when there are none.
   */
  embedder?: EmbedderChoice;
  /** Sync changed files first (default true; a stat per file). */
  sync?: boolean;
  /** Fusion of the arms (default weighted: measured better than rrf, see bench/README.md). */
  fusion?: FusionMethod;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Arm weights by name (lexical, facts, entity, time, opinion, vector). */
  weights?: Partial<Record<string, number>>;
  /** Line window around a match (default 1 line before, 1 after). */
  window?: Partial<WindowOptions>;
  /** Line re-scoring (speaker boost, same-file bonus). */
  lineRank?: Partial<LineRankOptions>;
}

/** Arm weights: structure (entity, time, opinion) leads when the question asks for it. */
export const DEFAULT_WEIGHTS: Record<string, number> = {
  lexical: 1,
  facts: 0.4,
  entity: 1.2,
  time: 1.3,
  opinion: 1.3,
  // Line-level USE similarity re-ranks lexical hits poorly on LoCoMo (bench/README.md): a light touch.
  vector: 0.2,
};

/** An entity with more facts than this is too common to be a useful search word. */
const COMMON_ENTITY_FACTS = 300;

/** How much a result outside a time window the query names is worth (soft: the window may be off). */
const OUTSIDE_WINDOW = 0.5;

/** A vague "recently" next to other words is a light preference for the last weeks, not a filter. */
const VAGUE_TIME = 0.3;

const KINDS: readonly ResultKind[] = ["world", "experience", "opinion", "observation", "note"];

const cachedEmbedders = new WeakMap<Embedder, Embedder>();

function validate(query: string, opts: RecallOptions): void {
  if (query.trim() === "") throw new MembankError("recall query is empty", { code: "EARGS", exitCode: 2 });
  for (const [name, v] of [
    ["since", opts.since],
    ["until", opts.until],
  ] as const) {
    if (v !== undefined && !isIsoDate(v)) {
      throw new MembankError(`--${name} must be a date YYYY-MM-DD, got ${JSON.stringify(v)}`, {
        code: "EARGS",
        exitCode: 2,
      });
    }
  }
  for (const k of opts.kinds ?? []) {
    if (!KINDS.includes(k)) {
      throw new MembankError(`unknown kind ${JSON.stringify(k)}: use ${KINDS.join(", ")}`, {
        code: "EARGS",
        exitCode: 2,
      });
    }
  }
}

/**
 * Answer a question from the memory: understand it (entities, time window, opinion cue,
 * words), run the arms that apply, fuse, deduplicate, keep k results within the token
 * budget. Every result cites `path#Lstart-Lend`.
 */
export async function recall(ws: Workspace, query: string, opts: RecallOptions = {}): Promise<RecallResponse> {
  validate(query, opts);
  const cfg = ws.config.recall;
  const k = opts.k ?? cfg.k;
  const budget = opts.budgetTokens ?? cfg.budgetTokens;
  const choice: EmbedderChoice = opts.embedder ?? { embedder: null, provider: "none" };
  const fallbacks: string[] = choice.fallback ? [choice.fallback] : [];

  if (opts.sync !== false) {
    // Only changed files are re-read (a stat per file). No embedding here: a question must not
    // wait for the corpus (missing vectors are filled by `membank index` or the nightly).
    const report = await syncIndex(ws, { reader: true });
    if (report.fallback) fallbacks.push(report.fallback);
    if (report.busy) fallbacks.push(report.busy);
  }
  const idx = acquireIndex(indexFile(ws));
  if (!hasLineStore(idx)) {
    // An index of an older membank, read without a sync: answer from facts and pages.
    fallbacks.push("the index has no line store yet (built by an older membank): run `membank index` for line results");
  }
  const entities = listEntities(idx);
  const intent = understandQuery(query, {
    asOf: opts.asOf ?? new Date(),
    entities: entities.map((e) => ({ slug: e.slug, names: [e.name, ...e.aliases] })),
  });
  if (intent.window?.vague)
    intent.window = anchorVague(intent.window, newestLogDay(idx, isoDay(opts.asOf ?? new Date())));
  if (opts.entity) {
    const row = findEntityByName(entities, opts.entity);
    const slug = row?.slug ?? opts.entity.replace(/^@/, "");
    if (!intent.entities.includes(slug)) intent.entities.unshift(slug);
    if (!intent.kinds.includes("entity")) intent.kinds.unshift("entity");
  }

  const weights = { ...DEFAULT_WEIGHTS, ...opts.weights } as Record<string, number>;
  const commonEntityAsked = entities.some((e) => intent.entities.includes(e.slug) && e.facts > COMMON_ENTITY_FACTS);
  const ctx: ArmContext = {
    root: ws.root,
    idx,
    query,
    intent,
    asOf: isoDay(opts.asOf ?? new Date()),
    // A very common entity is covered by the entity arm; its name as a search word would
    // add little (low IDF) but rank the thousands of lines that mention it.
    lexTerms: commonEntityAsked && intent.contentTerms.length > 0 ? intent.contentTerms : intent.terms,
    pool: Math.max(20, k * 4),
    window: { ...DEFAULT_WINDOW, ...opts.window },
    lineRank: { ...DEFAULT_LINE_RANK, ...opts.lineRank },
    ...(opts.since ? { since: opts.since } : {}),
    ...(opts.until ? { until: opts.until } : {}),
  };
  const arms: ArmList[] = [];
  const armMs = new Map<string, number>();
  const timed = (run: () => ArmList): ArmList => {
    const t = performance.now();
    const list = run();
    armMs.set(list.arm, performance.now() - t);
    return list;
  };
  // "Tell me about Priya": when the entity has facts, its name alone is no lexical
  // question (it would rank thousands of lines that merely mention her).
  const nameOnly = intent.contentTerms.length === 0 && commonEntityAsked;
  const cjk = hasCjk(query);
  if (!nameOnly && (intent.terms.length > 0 || cjk)) {
    arms.push(timed(() => linesArm(ctx, weights.lexical!)));
    if (idx.fts) arms.push(timed(() => factsArm(ctx, weights.facts!)));
  }
  // The entity arm ranks by recency, not by the question's other words: a strong lead for
  // "tell me about Priya", a weaker prior when the question also asks about something.
  const entityWeight = intent.kinds.includes("lexical") ? weights.entity! / 2 : weights.entity!;
  if (intent.entities.length > 0) arms.push(timed(() => entityArm(ctx, entities, entityWeight)));
  // "What did John recently get promoted to?": the words decide, not a guessed two weeks.
  const vagueOnly = intent.window?.vague === true && intent.terms.length > 0;
  if (intent.window) arms.push(timed(() => timeArm(ctx, weights.time! * (vagueOnly ? VAGUE_TIME : 1))));
  if (intent.kinds.includes("opinion")) arms.push(timed(() => opinionArm(ctx, weights.opinion!)));
  const plan = choice.embedder ? vectorArmPlan(idx, choice.embedder, choice.provider) : { use: false };
  if (plan.note) fallbacks.push(plan.note);
  let vectorRan = false;
  if (plan.use && choice.embedder) {
    let e = cachedEmbedders.get(choice.embedder);
    if (!e) {
      e = createCachedEmbedder(choice.embedder, idx.db);
      cachedEmbedders.set(choice.embedder, e);
    }
    try {
      const t = performance.now();
      const list = await vectorArm(ctx, e, weights.vector!);
      armMs.set(list.arm, performance.now() - t);
      arms.push(list);
      vectorRan = true;
    } catch (error) {
      const message = `embedding the query with ${choice.provider} failed: ${(error as Error).message}`;
      if (ws.config.embedding.fallback === "error") throw new MembankError(message, { code: "EEMBED", cause: error });
      fallbacks.push(`${message}; BM25 only`);
    }
  }

  const method = opts.fusion ?? DEFAULT_FUSE.method;
  let fused = fuse(arms, { method, rrfK: opts.rrfK ?? DEFAULT_FUSE.rrfK });
  const win = vagueOnly ? undefined : intent.window;
  if (win) {
    const reported = reportedWindow(win);
    for (const f of fused) {
      const w = f.cand.kind === "note" ? reported : win;
      if (!f.cand.date || !overlapsWindow(w, f.cand.date)) f.score *= OUTSIDE_WINDOW;
    }
    fused = sortFused(fused);
  }
  fused = dedupe(fused).filter((f) => {
    const c = f.cand;
    if (!inRange(c, opts.since, opts.until)) return false;
    if (opts.kinds && opts.kinds.length > 0 && !opts.kinds.includes(c.kind)) return false;
    if (opts.entity) {
      const slug = intent.entities[0]!.toLowerCase();
      const words = nameWords(slug).join(" ");
      const mentions =
        c.entities.some((e) => e.toLowerCase() === slug) || nameWords(c.content).join(" ").includes(words);
      if (!mentions) return false;
    }
    return true;
  });
  const judged = hasOpinions(idx);
  // With reflect's opinions page, the restatements and contradictions of an opinion are
  // that opinion (current confidence, judged evidence), except in a plain time question,
  // where the dated log line itself is the answer.
  if (judged && (intent.kinds.includes("opinion") || !intent.window)) fused = absorbIntoPageOpinions(idx, fused);
  const evidenceCache = new Map();
  for (const f of fused.slice(0, k * 2)) {
    const c = f.cand;
    if (c.kind !== "opinion" || c.evidence) continue;
    const filed = judged && c.factId ? pageEvidenceForFact(idx, c.factId) : undefined;
    c.evidence = filed ?? opinionEvidence(idx, c, 5, evidenceCache);
  }
  const top = collapseOpinions(fused).slice(0, k);
  const results = fitBudget(
    top.map((f) => toResult(f, opts.explain ?? false)),
    budget,
  );
  const response: RecallResponse = {
    query,
    intent: {
      entities: intent.entities,
      ...(intent.window ? { window: intent.window } : {}),
      kinds: intent.kinds,
    },
    results,
    provider: vectorRan ? choice.provider : "none",
  };
  if (vectorRan && choice.model) response.model = choice.model;
  if (fallbacks.length > 0) response.fallback = fallbacks.join("; ");
  if (opts.explain) {
    response.explain = {
      fusion: method,
      terms: intent.terms.map((t) => t.text),
      arms: arms.map((a) => ({
        arm: a.arm,
        weight: a.weight,
        hits: a.items.length,
        ms: Math.round((armMs.get(a.arm) ?? 0) * 10) / 10,
      })),
    };
  }
  return response;
}

/**
 * Restatements of one opinion on several days are one result: the newest statement
 * (its confidence is the current one) at the best rank of the group, the older ones as
 * its evidence. Opinions are linked when one lists the other as evidence.
 */
export function collapseOpinions(items: Fused[]): Fused[] {
  const out: Fused[] = [];
  const bySource = new Map<string, Fused>();
  for (const f of items) {
    const c = f.cand;
    // A judged opinion of the page is one opinion already.
    if (c.kind !== "opinion" || !c.evidence || c.opinionId) {
      out.push(f);
      continue;
    }
    const self = `${c.path}#L${c.startLine}`;
    const linked = c.evidence.map((e) => bySource.get(e.source)).find((x) => x !== undefined);
    if (!linked) {
      out.push(f);
      bySource.set(self, f);
      continue;
    }
    bySource.set(self, linked);
    const head = linked.cand;
    const newer = (c.date ?? "") > (head.date ?? "") ? c : head;
    const older = newer === c ? head : c;
    const evidence = new Map((newer.evidence ?? []).map((e) => [e.source, e]));
    const olderRef = `${older.path}#L${older.startLine}`;
    if (!evidence.has(olderRef)) {
      const stance = older.evidence?.find((e) => e.source === `${newer.path}#L${newer.startLine}`)?.stance ?? "support";
      evidence.set(olderRef, { source: olderRef, stance });
    }
    linked.cand = {
      ...newer,
      evidence: [...evidence.values()].filter((e) => e.source !== `${newer.path}#L${newer.startLine}`),
    };
    linked.arms = [...linked.arms, ...f.arms.filter((a) => !linked.arms.some((b) => b.arm === a.arm))];
  }
  return out;
}

export type { FactKind };
