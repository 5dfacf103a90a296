import type { Embedder } from "../embed/types.js";
import { dot } from "../embed/vector.js";
import { chunksByIds, readLines, vectorKnn } from "../index/index.js";
import { type ArmContext, windowsToItems } from "./arms.js";
import { byLineScore, type LineHit } from "./lines.js";
import type { SemanticSource } from "./plan.js";
import { wordsFoundEnough } from "./synonym-arm.js";
import type { ArmList } from "./types.js";

/**
 * Vectors as a candidate source (issue 14 item 3): the lines of the chunks nearest to the
 * question by embedding, ranked by their own cosine to it, as an arm of their own. The
 * vector arm (arms.ts) re-ranks the lexical arm's lines at a light weight, so a line that
 * shares no word with the question ("where will the offsite be?" -> "the team trip is in
 * Lisbon") could only ever be a weak extra there; here it competes as a candidate.
 */
/** Headings and rules say little on their own; a line needs a letter or digit. */
const isContentLine = (text: string): boolean => /[\p{L}\p{N}]/u.test(text) && !/^\s*#/.test(text);

export async function vectorSourceArm(
  ctx: ArmContext,
  embedder: Embedder,
  weight: number,
  opts: SemanticSource = ctx.plan.tuning.semantic,
): Promise<ArmList> {
  // The cached embedder (recall.ts) answers a question the vector arm embedded already from its cache.
  const [qv] = await embedder.embed([ctx.query]);
  if (!qv) return { arm: "semantic", weight, items: [] };
  // A paraphrase ("where is the company retreat?" for "the team offsite is in Lisbon"): the
  // words found little, so the nearest lines by meaning lead.
  if (!ctx.plan.lexical || !wordsFoundEnough(ctx)) weight = Math.max(weight, opts.paraphraseWeight);
  const chunks = chunksByIds(
    ctx.idx,
    vectorKnn(ctx.idx, qv, opts.chunks).map((h) => h.id),
  );
  const lines = new Map<string, { path: string; line: number; text: string; date?: string }>();
  for (const c of chunks) {
    if (ctx.since && (!c.date || c.date < ctx.since)) continue;
    if (ctx.until && (!c.date || c.date > ctx.until)) continue;
    for (const l of readLines(ctx.idx, c.path, c.startLine, c.endLine)) {
      if (!isContentLine(l.text)) continue;
      lines.set(`${c.path}#${l.line}`, {
        path: c.path,
        line: l.line,
        text: l.text,
        ...(c.date ? { date: c.date } : {}),
      });
    }
  }
  const list = [...lines.values()];
  const vecs = list.length > 0 ? await embedder.embed(list.map((l) => l.text)) : [];
  const hits: LineHit[] = [];
  list.forEach((l, i) => {
    const v = vecs[i];
    const sim = v ? dot(qv, v) : 0;
    if (sim >= opts.minSimilarity) hits.push({ ...l, score: sim });
  });
  hits.sort(byLineScore);
  return { arm: "semantic", weight, items: windowsToItems(ctx, hits, ctx.pool) };
}
