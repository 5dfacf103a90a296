import type { Embedder, EmbedderChoice } from "../embed/types.js";
import { type IndexDb, indexFile } from "../index/db.js";
import { createCachedEmbedder } from "../index/embedding-cache.js";
import { vectorArmPlan } from "../index/embedpass.js";
import { syncForQuery } from "../index/freshness.js";
import { acquireIndex } from "../index/handles.js";
import { listEntities, newestLogDay } from "../index/queries.js";
import { isIsoDate } from "../markdown/log-path.js";
import type { FactKind } from "../retain/types.js";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";
import { ARMS } from "./arm-list.js";
import { type ArmContext, inRange, lexicalLineHits } from "./arms.js";
import { roleNameWords } from "./entity-answers.js";
import { findEventDay } from "./event-time.js";
import { DEFAULT_FUSE, dedupe, type Fused, type FusionMethod, fuse, sortFused } from "./fuse.js";
import { understandQuery } from "./intent.js";
import { DEFAULT_LINE_RANK, type LineRankOptions } from "./linerank.js";
import { hasLineStore, type LineHit } from "./lines.js";
import { groupOpinions } from "./opinion-group.js";
import {
  DEFAULT_TUNING,
  makePlan,
  mentionsEntity,
  type RecallPlan,
  type RecallTuning,
  type SemanticSource,
  type SynonymMode,
} from "./plan.js";
import { detectProfile, PROFILES, type RecallProfile, type RecallProfileName } from "./profile.js";
import { chatFilesOnDisk, oneResultPerChatLine } from "./same-chat.js";
import { fitBudget, toResult } from "./shape.js";
import { findEntityByName } from "./text.js";
import { anchorVague, isoDay, monthBounds, overlapsWindow, reportedWindow } from "./timewindow.js";
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
  /** Ranking rules for chat transcripts or plain logs (default config recall.profile: detected). */
  profile?: RecallProfileName;
  /** WordNet synonyms of the topic words: always, only when the words find little (default), or off. */
  synonyms?: SynonymMode;
  /** The semantic candidate arm's reach (plan.ts DEFAULT_TUNING.semantic); its weight is weights.semantic. */
  semantic?: Partial<SemanticSource>;
}

const KINDS: readonly ResultKind[] = ["world", "experience", "opinion", "observation", "note"];

/** Arms that embed the question: a provider failure falls back to BM25 (config embedding.fallback). */
const EMBEDDING_ARMS = new Set(["vector", "semantic"]);

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

/** Config recall.tuning and the call's options over the documented defaults (plan.ts DEFAULT_TUNING). */
function tuningOf(ws: Workspace, opts: RecallOptions): RecallTuning {
  const cfg = ws.config.recall.tuning ?? {};
  return {
    ...DEFAULT_TUNING,
    ...(cfg.outsideWindow !== undefined ? { outsideWindow: cfg.outsideWindow } : {}),
    ...(cfg.vagueTime !== undefined ? { vagueTime: cfg.vagueTime } : {}),
    ...(cfg.commonEntityFacts !== undefined ? { commonEntityFacts: cfg.commonEntityFacts } : {}),
    ...(opts.synonyms !== undefined ? { synonyms: opts.synonyms } : {}),
    semantic: { ...DEFAULT_TUNING.semantic, ...opts.semantic },
    weights: { ...DEFAULT_TUNING.weights, ...cfg.weights, ...opts.weights } as Record<string, number>,
  };
}

/** The profile: the call's, else config recall.profile, else detected from the logs (profile.ts). */
function profileFor(ws: Workspace, idx: IndexDb, opts: RecallOptions): RecallProfile {
  const chosen = opts.profile ?? ws.config.recall.profile ?? "auto";
  return PROFILES[chosen === "auto" ? detectProfile(idx) : chosen];
}

/**
 * Answer a question from the memory: understand it (entities, time window, opinion cue,
 * words) into a plan, run the arms that apply (arm-list.ts), fuse, weigh against the time
 * window, deduplicate, filter, group opinions, keep k results within the token budget.
 * Every result cites `path#Lstart-Lend`.
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
    const report = await syncForQuery(ws);
    if (report.fallback) fallbacks.push(report.fallback);
    if (report.busy) fallbacks.push(report.busy);
  }
  const idx = acquireIndex(indexFile(ws));
  if (!hasLineStore(idx)) {
    // An index of an older membank, read without a sync: answer from facts and pages.
    fallbacks.push("the index has no line store yet (built by an older membank): run `membank index` for line results");
  }
  const entities = listEntities(idx);
  const asOf = opts.asOf ?? new Date();
  const intent = understandQuery(query, {
    asOf,
    entities: entities.map((e) => ({ slug: e.slug, names: [e.name, ...e.aliases] })),
    eventDay: (words) => findEventDay(idx, words),
  });
  if (intent.window?.vague) intent.window = anchorVague(intent.window, newestLogDay(idx, isoDay(asOf)));
  if (opts.entity) {
    const row = findEntityByName(entities, opts.entity);
    const slug = row?.slug ?? opts.entity.replace(/^@/, "");
    if (!intent.entities.includes(slug)) intent.entities.unshift(slug);
    if (!intent.kinds.includes("entity")) intent.kinds.unshift("entity");
  }
  // "the accountant", "my second supervisor": the logs say the name MEMORY.md gives the role.
  if (intent.entities.length === 0)
    for (const w of roleNameWords({ idx }, entities, query))
      if (!intent.terms.some((t) => t.text === w)) {
        intent.terms.push({ text: w, exact: false });
        intent.contentTerms.push({ text: w, exact: false });
      }
  const plan = makePlan(query, intent, entities, k, profileFor(ws, idx, opts), tuningOf(ws, opts));

  const vectors = choice.embedder ? vectorArmPlan(idx, choice.embedder, choice.provider) : { use: false };
  if (vectors.note) fallbacks.push(vectors.note);
  let embedder: Embedder | undefined;
  if (vectors.use && choice.embedder) {
    embedder = cachedEmbedders.get(choice.embedder);
    if (!embedder) {
      embedder = createCachedEmbedder(choice.embedder, idx.db);
      cachedEmbedders.set(choice.embedder, embedder);
    }
  }
  const base: Omit<ArmContext, "lexicalLines"> = {
    root: ws.root,
    idx,
    query,
    intent,
    asOf: isoDay(asOf),
    lexTerms: plan.lexTerms,
    pool: plan.pool,
    window: { ...DEFAULT_WINDOW, turnShift: plan.profile.turnShift, ...opts.window },
    lineRank: { ...DEFAULT_LINE_RANK, ...opts.lineRank },
    plan,
    entities,
    ...(embedder ? { embedder } : {}),
    ...(opts.since ? { since: opts.since } : {}),
    ...(opts.until ? { until: opts.until } : {}),
  };
  let lexical: LineHit[] | undefined;
  const ctx: ArmContext = { ...base, lexicalLines: () => (lexical ??= lexicalLineHits(base)) };

  const arms: ArmList[] = [];
  const armMs = new Map<string, number>();
  let vectorRan = false;
  let embedFailed = false;
  for (const spec of ARMS) {
    if (!spec.when(plan, ctx) || (embedFailed && EMBEDDING_ARMS.has(spec.name))) continue;
    const t = performance.now();
    try {
      const list = await spec.run(ctx, spec.weight(plan));
      if (list.items.length > 0 || !spec.optional) arms.push(list);
    } catch (error) {
      if (!EMBEDDING_ARMS.has(spec.name)) throw error;
      embedFailed = true;
      const message = `embedding the query with ${choice.provider} failed: ${(error as Error).message}`;
      if (ws.config.embedding.fallback === "error") throw new MembankError(message, { code: "EEMBED", cause: error });
      fallbacks.push(`${message}; BM25 only`);
      continue;
    }
    armMs.set(spec.name, performance.now() - t);
    if (EMBEDDING_ARMS.has(spec.name)) vectorRan = true;
  }

  const method = opts.fusion ?? DEFAULT_FUSE.method;
  const fused = weighWindow(fuse(arms, { method, rrfK: opts.rrfK ?? DEFAULT_FUSE.rrfK }), plan);
  // A chat's line from OpenClaw's /new copy and from the digest holding the chat: one result, the digest's.
  const kept = dedupe(oneResultPerChatLine(fused, chatFilesOnDisk(ws.root))).filter((f) => {
    const c = f.cand;
    if (!inRange(c, opts.since, opts.until)) return false;
    if (opts.kinds && opts.kinds.length > 0 && !opts.kinds.includes(c.kind)) return false;
    return !opts.entity || mentionsEntity(c, intent.entities[0]!);
  });
  const top = groupOpinions(idx, kept, plan).slice(0, k);
  const results = fitBudget(
    top.map((f) => toResult(f, opts.explain ?? false, plan.tuning.maxEvidenceLinks)),
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
      profile: plan.profile.name,
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
 * A time window the question names (not a vague "recently" next to other words): results
 * outside it (a part of a month: outside its month) are worth `outsideWindow`; log lines may
 * also fall in the days after it that report it (the chat profile's report lag).
 */
function weighWindow(fused: Fused[], plan: RecallPlan): Fused[] {
  const win = plan.vagueOnly ? undefined : plan.intent.window;
  if (!win) return fused;
  // A part of a month ("late April") ranks its days first (the time arm) but bounds at its month.
  const bounds = monthBounds(win);
  const reported = reportedWindow(bounds, plan.profile.reportLagDays);
  for (const f of fused) {
    const w = f.cand.kind === "note" ? reported : bounds;
    if (!f.cand.date || !overlapsWindow(w, f.cand.date)) f.score *= plan.tuning.outsideWindow;
  }
  return sortFused(fused);
}

export { collapseOpinions } from "./opinion-group.js";
export { DEFAULT_WEIGHTS } from "./plan.js";
export type { FactKind };
