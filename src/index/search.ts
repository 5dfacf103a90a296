import { hasCjk, queryTerms } from "../analysis/tokens.js";
import type { EmbedderChoice } from "../embed/types.js";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";
import { indexFile, inStateDir, removeIndexFile } from "./db.js";
import { vectorArmPlan } from "./embedpass.js";
import { syncForQuery } from "./freshness.js";
import { buildMatchQuery, cjkTerms } from "./fts.js";
import { acquireIndex, releaseIndex } from "./handles.js";
import { bm25Chunks, type ChunkRow, chunksByIds, trigramChunks, vectorKnn } from "./queries.js";
import { isCorruption, syncIndex } from "./sync.js";

/** One `memory_search` result (OpenClaw contract). */
export interface SearchResult {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  /** Which corpus the hit is from; every indexed file is a memory file, as in OpenClaw. */
  source: "memory";
}

export interface SearchResponse {
  results: SearchResult[];
  /** The embedding provider used for the vector arm, or "none" (BM25 only). */
  provider: string;
  model?: string;
  /** Why the preferred provider (or arm) was not used, when it was not. */
  fallback?: string;
}

export interface SearchOptions {
  maxResults?: number;
  minScore?: number;
  embedder?: EmbedderChoice;
  /** Sync changed files before searching (default true: a stat per file, re-index only what changed). */
  sync?: boolean;
  /** Test/diagnostic switches, as for syncIndex. */
  fts?: boolean;
  vec?: boolean;
}

/** Cut a chunk's text to at most `max` characters, preferring a line boundary. Pure. */
export function makeSnippet(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - 1;
  const nl = text.lastIndexOf("\n", room);
  const cut = nl >= room / 2 ? nl : room;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/**
 * Is the lexical arm enough on its own? When every term is an exact token (an id, a
 * ticket, a key=value, a path, CJK text: something with a digit, inner punctuation or
 * CJK characters) and BM25 found it, semantic similarity adds nothing but cost (an
 * embedding model load on every CLI call) and would dilute an exact hit's score.
 */
export function lexicalIsDecisive(query: string, lexicalHits: number): boolean {
  if (lexicalHits === 0) return false;
  const terms = queryTerms(query);
  return terms.length > 0 && terms.every((t) => /\p{N}|[\p{L}\p{N}][-_=./:#@][\p{L}\p{N}]/u.test(t) || hasCjk(t));
}

interface Candidate {
  id: number;
  text: number;
  vector: number;
}

/**
 * Hybrid memory search: score = (vectorWeight * cosine + textWeight * bm25score) /
 * (vectorWeight + textWeight), over a candidate pool of maxResults * candidateMultiplier
 * from each arm. BM25 scores are relative to the query's best lexical hit (0..1); CJK
 * runs also search the trigram table. With no embedder the score is the text score;
 * without FTS5 it is the vector score. Results below minScore are dropped.
 */
export async function search(ws: Workspace, query: string, opts: SearchOptions = {}): Promise<SearchResponse> {
  try {
    return await searchOnce(ws, query, opts);
  } catch (error) {
    if (!isCorruption(error)) throw error;
    // The file broke under us (damaged on disk after it was opened): rebuild it and answer from the new one.
    const file = indexFile(ws);
    releaseIndex(file);
    removeIndexFile(file);
    await syncIndex(ws, { fts: opts.fts, vec: opts.vec });
    const res = await searchOnce(ws, query, { ...opts, sync: false });
    const note = `index ${file} was damaged (${(error as Error).message}) and was rebuilt`;
    return { ...res, fallback: res.fallback ? `${res.fallback}; ${note}` : note };
  }
}

async function searchOnce(ws: Workspace, query: string, opts: SearchOptions): Promise<SearchResponse> {
  const cfg = ws.config.search;
  const maxResults = opts.maxResults ?? cfg.maxResults;
  const minScore = opts.minScore ?? cfg.minScore;
  const choice: EmbedderChoice = opts.embedder ?? { embedder: null, provider: "none" };
  if (query.trim() === "") throw new MembankError("search query is empty", { code: "EARGS", exitCode: 2 });

  const fallbacks: string[] = [];
  if (choice.fallback) fallbacks.push(choice.fallback);
  if (opts.sync !== false) {
    // Files only: a query never embeds the corpus (missing vectors are `membank index`'s job).
    const report = await syncForQuery(ws, { fts: opts.fts, vec: opts.vec });
    if (report.fallback) fallbacks.push(report.fallback);
    if (report.busy) fallbacks.push(report.busy);
  }
  const file = indexFile(ws);
  const openOpts = { fts: opts.fts, vec: opts.vec, owned: inStateDir(ws, file) };
  let idx = acquireIndex(file, openOpts);
  if (idx.replaced) {
    // The file was unusable and is now empty: fill it before answering (also when sync was off).
    fallbacks.push(`index was unusable (${idx.replaced}) and was rebuilt`);
    await syncIndex(ws, { fts: opts.fts, vec: opts.vec });
    idx = acquireIndex(file, openOpts);
  }
  const pool = maxResults * cfg.candidateMultiplier;
  const candidates = new Map<number, Candidate>();
  const rows = new Map<number, ChunkRow>();
  const candidate = (id: number): Candidate => {
    let c = candidates.get(id);
    if (!c) {
      c = { id, text: 0, vector: 0 };
      candidates.set(id, c);
    }
    return c;
  };

  if (idx.fts) {
    const lexical = [...bm25Chunks(idx, buildMatchQuery(query), pool)];
    if (hasCjk(query)) lexical.push(...trigramChunks(idx, cjkTerms(query), pool));
    for (const hit of lexical) {
      const c = candidate(hit.row.id);
      c.text = Math.max(c.text, hit.score);
      rows.set(hit.row.id, hit.row);
    }
  }

  let vectorArm = false;
  const plan = choice.embedder ? vectorArmPlan(idx, choice.embedder, choice.provider) : { use: false };
  if (plan.note) fallbacks.push(plan.note);
  if (plan.use && lexicalIsDecisive(query, candidates.size)) {
    fallbacks.push("exact-token query answered by BM25; vector arm skipped");
  } else if (plan.use && choice.embedder) {
    try {
      const [qv] = await choice.embedder.embed([query]);
      if (qv) {
        for (const hit of vectorKnn(idx, qv, pool)) candidate(hit.id).vector = hit.score;
        vectorArm = true;
      }
    } catch (error) {
      const message = `embedding the query with ${choice.provider} failed: ${(error as Error).message}`;
      if (ws.config.embedding.fallback === "error") throw new MembankError(message, { code: "EEMBED", cause: error });
      fallbacks.push(`${message}; BM25 only`);
    }
  }

  const vw = vectorArm ? cfg.vectorWeight : 0;
  const tw = idx.fts ? cfg.textWeight : 0;
  const total = vw + tw;
  if (!idx.fts && !vectorArm) fallbacks.push("no FTS5 and no embedder: nothing to search with");
  // Rows for every candidate, so ties break by path and line (stable across rebuilds, unlike chunk ids).
  const missing = [...candidates.keys()].filter((id) => !rows.has(id));
  for (const row of chunksByIds(idx, missing)) rows.set(row.id, row);
  const ranked =
    total === 0
      ? []
      : [...candidates.values()]
          .filter((c) => rows.has(c.id))
          .map((c) => ({ row: rows.get(c.id)!, score: (vw * c.vector + tw * c.text) / total }))
          .filter((c) => c.score >= minScore)
          .sort(
            (a, b) =>
              b.score - a.score ||
              (a.row.path < b.row.path ? -1 : a.row.path > b.row.path ? 1 : 0) ||
              a.row.startLine - b.row.startLine,
          )
          .slice(0, maxResults);

  const results: SearchResult[] = ranked.map(({ row, score }) => ({
    path: row.path,
    startLine: row.startLine,
    endLine: row.endLine,
    score: Math.round(score * 10_000) / 10_000,
    snippet: makeSnippet(row.text, cfg.snippetChars),
    source: "memory",
  }));
  const fallback = [...new Set(fallbacks)].join("; ");
  return {
    results,
    provider: vectorArm ? choice.provider : "none",
    ...(vectorArm && choice.model !== undefined ? { model: choice.model } : {}),
    ...(fallback ? { fallback } : {}),
  };
}
