// Shared scoring for conversational retrieval benchmarks in the layout of ../shared/eval/locomo
// (see ../shared/eval/README.md): a workspace per conversation or haystack, queries.jsonl with
// gold evidence lines. Used by bench/convo.bench.mjs; works on any such folder.
//
// A hit at k: one of the top k results' line range contains a gold evidence line (same file).
// Scores: R@1/5/10 and MRR@10 per category and overall, mean lines (and characters) per result.
// The plain-BM25 baseline ranks fixed, non-overlapping N-line windows of every memory/*.md file
// (k1 1.2, b 0.75, membank's one stop-word list dropped, no stemming), the reference floor of
// ../shared/eval/README.md.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** queries.jsonl of `dir`, grouped by workspace in file order. */
export function loadEvalSet(dir) {
  const file = path.join(dir, "queries.jsonl");
  const queries = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`${file}:${i + 1}: not valid JSON (${e.message})`);
      }
    });
  const byWorkspace = new Map();
  for (const q of queries) {
    if (!byWorkspace.has(q.workspace)) byWorkspace.set(q.workspace, []);
    byWorkspace.get(q.workspace).push(q);
  }
  return { queries, byWorkspace };
}

/** `path#Lstart-Lend` -> {path, start, end}. */
export function parseSource(s) {
  const m = /^(.*)#L(\d+)-L(\d+)$/.exec(s);
  return m ? { path: m[1], start: Number(m[2]), end: Number(m[3]) } : undefined;
}

/** 1-based rank of the first result whose range holds a gold line, or undefined. */
export function hitRank(results, evidence) {
  const i = results.findIndex((r) => evidence.some((e) => e.path === r.path && e.line >= r.start && e.line <= r.end));
  return i < 0 ? undefined : i + 1;
}

/** Per-category and overall recall@k / MRR@10, and the size of what was returned. */
export class Scores {
  constructor(name) {
    this.name = name;
    this.stats = new Map();
    this.lines = 0;
    this.chars = 0;
    this.results = 0;
    this.times = [];
  }

  /** One question: its category, its results ({path,start,end}), their text size, its gold lines. */
  add(category, results, evidence, textOf) {
    const rank = hitRank(results, evidence);
    for (const key of [category, "overall"]) {
      const s = this.stats.get(key) ?? { n: 0, r1: 0, r5: 0, r10: 0, mrr: 0 };
      s.n++;
      if (rank && rank <= 1) s.r1++;
      if (rank && rank <= 5) s.r5++;
      if (rank && rank <= 10) s.r10++;
      if (rank && rank <= 10) s.mrr += 1 / rank;
      this.stats.set(key, s);
    }
    for (const r of results) {
      this.lines += r.end - r.start + 1;
      this.chars += textOf ? textOf(r).length : 0;
      this.results++;
    }
    return rank;
  }

  keys() {
    return [...this.stats.keys()].sort((a, b) =>
      a === "overall" ? 1 : b === "overall" ? -1 : String(a) < String(b) ? -1 : 1,
    );
  }

  get(key) {
    const s = this.stats.get(key);
    return s && { n: s.n, r1: s.r1 / s.n, r5: s.r5 / s.n, r10: s.r10 / s.n, mrr: s.mrr / s.n };
  }

  meanLines() {
    return this.results ? this.lines / this.results : 0;
  }

  meanChars() {
    return this.results ? this.chars / this.results : 0;
  }

  table() {
    const f = (x) => x.toFixed(3);
    const t = [...this.times].sort((a, b) => a - b);
    const time = t.length
      ? `, p50 ${t[Math.floor(t.length / 2)].toFixed(1)} ms, p95 ${t[Math.floor(t.length * 0.95)].toFixed(1)} ms`
      : "";
    const out = [
      `\n## ${this.name}: mean lines/result ${this.meanLines().toFixed(2)}, chars/result ${this.meanChars().toFixed(0)}${time}`,
      "| category | n | R@1 | R@5 | R@10 | MRR@10 |",
      "|---|---|---|---|---|---|",
    ];
    for (const key of this.keys()) {
      const s = this.get(key);
      out.push(`| ${key} | ${s.n} | ${f(s.r1)} | ${f(s.r5)} | ${f(s.r10)} | ${f(s.mrr)} |`);
    }
    return out.join("\n");
  }
}

/** Side by side: R@5 / R@10 of each system per category (the issue's comparison table). */
export function comparison(all) {
  const keys = all[0].keys();
  const head = all.map((s) => `${s.name} R@5 / R@10`).join(" | ");
  const out = [
    `\n| category | n | ${head} |`,
    `|---|---|${all.map(() => "---|").join("")}`,
    `| lines/result | | ${all.map((s) => s.meanLines().toFixed(2)).join(" | ")} |`,
  ];
  for (const key of keys) {
    const cells = all.map((s) => {
      const v = s.get(key);
      return v ? `${v.r5.toFixed(3)} / ${v.r10.toFixed(3)}` : "-";
    });
    out.push(`| ${key} | ${all[0].get(key).n} | ${cells.join(" | ")} |`);
  }
  return out.join("\n");
}

/** Lower-cased letter/digit runs, stop words dropped. */
export function bm25Tokens(text, stopWords) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !stopWords.has(w));
}

/** The memory/*.md files of a workspace: relative path -> lines. */
export function readLogs(wsDir) {
  const files = new Map();
  for (const name of readdirSync(path.join(wsDir, "memory")).sort()) {
    if (!name.endsWith(".md")) continue;
    files.set(`memory/${name}`, readFileSync(path.join(wsDir, "memory", name), "utf8").split("\n"));
  }
  return files;
}

/**
 * Plain BM25 over fixed `size`-line windows (1..size, size+1..2size, ...) of `files`
 * (path -> lines). Returns search(query, k) -> [{path, start, end}], best first.
 */
export function bm25Windows(files, size, stopWords, { k1 = 1.2, b = 0.75 } = {}) {
  const docs = [];
  for (const [p, lines] of files) {
    const n = lines.length - (lines[lines.length - 1] === "" ? 1 : 0);
    for (let start = 1; start <= n; start += size) {
      const end = Math.min(n, start + size - 1);
      const tf = new Map();
      const toks = bm25Tokens(lines.slice(start - 1, end).join("\n"), stopWords);
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
      docs.push({ path: p, start, end, tf, len: toks.length });
    }
  }
  const df = new Map();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((a, d) => a + d.len, 0) / Math.max(1, docs.length);
  const N = docs.length;
  return (query, k) => {
    const terms = [...new Set(bm25Tokens(query, stopWords))];
    const scored = [];
    for (const d of docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const n = df.get(t);
        const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
        score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.len) / avg));
      }
      if (score > 0) scored.push({ d, score });
    }
    scored.sort(
      (x, y) => y.score - x.score || (x.d.path < y.d.path ? -1 : x.d.path > y.d.path ? 1 : x.d.start - y.d.start),
    );
    return scored.slice(0, k).map(({ d }) => ({ path: d.path, start: d.start, end: d.end }));
  };
}
