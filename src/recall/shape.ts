import { logDate } from "../markdown/log-path.js";
import { type Fused, round } from "./fuse.js";
import type { EvidenceRef, RecallResult } from "./types.js";

/** Rough token count for budgeting: ~4 characters a token (English prose and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a result costs beyond its content: kind, date, source, score, entities. */
export const RESULT_OVERHEAD_TOKENS = 16;

export function sourceRef(path: string, start: number, end: number): string {
  return `${path}#L${start}-L${end}`;
}

/**
 * At most `limit` evidence links, the newest of each stance in turn (so a belief restated for
 * years shows its latest support and its latest doubt), in the page's order. A judged opinion
 * lists every link of bank/opinions.md: hundreds after years, which alone overran the token
 * budget, so an opinion question got no answer at all.
 */
export function newestEvidence(evidence: readonly EvidenceRef[], limit: number): EvidenceRef[] {
  if (evidence.length <= limit) return [...evidence];
  const day = (e: EvidenceRef) => logDate(e.source.replace(/#L\d+.*$/, "")) ?? "";
  const byStance = (stance: EvidenceRef["stance"]) =>
    evidence
      .map((e, i) => ({ e, i }))
      .filter((x) => x.e.stance === stance)
      .sort((a, b) => (day(a.e) === day(b.e) ? b.i - a.i : day(a.e) < day(b.e) ? 1 : -1));
  const lists = [byStance("support"), byStance("contradict")];
  const kept: { e: EvidenceRef; i: number }[] = [];
  for (let round = 0; kept.length < limit && lists.some((l) => l.length > round); round++) {
    for (const l of lists) if (l[round] && kept.length < limit) kept.push(l[round]!);
  }
  return kept.sort((a, b) => a.i - b.i).map((x) => x.e);
}

/** A fused candidate as a result of the public contract; `evidenceLinks` caps its evidence. */
export function toResult(f: Fused, explain: boolean, evidenceLinks = Number.POSITIVE_INFINITY): RecallResult {
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
  if (c.evidence && c.evidence.length > 0) {
    r.evidence = newestEvidence(c.evidence, evidenceLinks);
    if (r.evidence.length < c.evidence.length) r.evidenceTotal = c.evidence.length;
  }
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
