import { type Fused, round } from "./fuse.js";
import type { RecallResult } from "./types.js";

/** Rough token count for budgeting: ~4 characters a token (English prose and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a result costs beyond its content: kind, date, source, score, entities. */
export const RESULT_OVERHEAD_TOKENS = 16;

export function sourceRef(path: string, start: number, end: number): string {
  return `${path}#L${start}-L${end}`;
}

/** A fused candidate as a result of the public contract. */
export function toResult(f: Fused, explain: boolean): RecallResult {
  const c = f.cand;
  const r: RecallResult = {
    kind: c.kind,
    ...(c.date ? { timestamp: c.date } : {}),
    entities: c.entities,
    content: c.content,
    source: sourceRef(c.path, c.startLine, c.endLine),
    score: round(f.score, 6),
  };
  if (c.confidence !== undefined) r.confidence = c.confidence;
  if (c.status !== undefined) r.status = c.status;
  if (c.trajectory) r.trajectory = c.trajectory;
  if (c.evidence && c.evidence.length > 0) r.evidence = c.evidence;
  if (explain) r.arms = f.arms;
  return r;
}

function cost(r: RecallResult): number {
  return RESULT_OVERHEAD_TOKENS + estimateTokens(r.content) + (r.evidence?.length ?? 0) * 10;
}

/**
 * Keep results, best first, while they fit in `budgetTokens`. The first result that does
 * not fit is cut at a line end (its source's end line moves up, `truncated: "lines"`);
 * only when not even one line fits and nothing was kept is a line cut mid-way, and then
 * it says so (`truncated: "chars"`, content ends with `…`). Nothing else is dropped silently:
 * the caller sees fewer results.
 */
export function fitBudget(results: readonly RecallResult[], budgetTokens: number): RecallResult[] {
  const out: RecallResult[] = [];
  let used = 0;
  for (const r of results) {
    const c = cost(r);
    if (used + c <= budgetTokens) {
      out.push(r);
      used += c;
      continue;
    }
    const room = budgetTokens - used - RESULT_OVERHEAD_TOKENS - (r.evidence?.length ?? 0) * 10;
    const cut = cutToLines(r, room);
    if (cut) out.push(cut);
    else if (out.length === 0 && room > 4) {
      out.push({ ...r, content: `${r.content.slice(0, room * 4 - 1)}…`, truncated: "chars" });
    }
    break;
  }
  return out;
}

function cutToLines(r: RecallResult, roomTokens: number): RecallResult | undefined {
  const lines = r.content.split("\n");
  if (lines.length < 2 || roomTokens <= 0) return undefined;
  const m = /^(.*)#L(\d+)-L(\d+)$/.exec(r.source);
  let keep = 0;
  let chars = 0;
  for (const line of lines) {
    const next = chars + line.length + (keep > 0 ? 1 : 0);
    if (estimateTokens("x".repeat(next)) > roomTokens) break;
    chars = next;
    keep++;
  }
  if (keep === 0) return undefined;
  const content = lines.slice(0, keep).join("\n");
  // Content lines are the file's lines start..end in order, so the cited range ends at the last kept line.
  let source = r.source;
  if (m) {
    const start = Number(m[2]);
    source = `${m[1]}#L${start}-L${Math.min(Number(m[3]), start + keep - 1)}`;
  }
  return { ...r, content, source, truncated: "lines" };
}
