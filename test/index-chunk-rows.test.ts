import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { utimes } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, openIndex, syncIndex } from "../src/index/index.js";
import { monthTitle } from "../src/reflect/format.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { hashEmbedder, makeWorkspace } from "./index-support.js";

// A changed file keeps the chunk rows whose text did not change (src/index/chunk-rows.ts):
// a big entity page that gains a fact must not cost a delete and re-insert of every chunk.
// What a user sees must be what a rebuilt index holds.

const PEOPLE = ["Ines", "Mara", "Tomasz", "Ravi", "Oona", "Jules"];
const PLACES = ["Lisbon", "the Porto office", "Kraków", "a cabin near Bergen", "home", "the coworking space"];
const THINGS = [
  "the invoice export broke again (CSV had semicolons)",
  "moved standup to 9:45, nobody complained",
  "ledger-sync backlog down to 40 items",
  "Ravi's kid was sick so we pushed the demo",
  "tried the new espresso place on Rua das Flores — too bitter",
  "finally fixed the flaky test in payments/retry.spec.ts",
  "call w/ accountant re: VAT, need receipts by Friday",
  "offsite planning: 12 people, maybe Sintra?",
];

/**
 * A typed bank page the way reflect writes one after years of logs (bank/world.md): month
 * sections, newest first, hundreds of dated, cited facts. `extra` goes right after day `after`.
 */
function page(days: number, extra?: { after: number; line: string }): string {
  const out = ["# World", "", "<!-- membank:begin facts -->"];
  let month = "";
  for (let d = days - 1; d >= 0; d--) {
    const at = new Date(Date.UTC(2021, 0, 1) + d * 86_400_000);
    const date = at.toISOString().slice(0, 10);
    const heading = `## ${monthTitle(date.slice(0, 7))}`; // as reflect writes it
    if (heading !== month) out.push("", heading, "");
    month = heading;
    const who = PEOPLE[d % PEOPLE.length]!;
    const what = THINGS[(d * 7) % THINGS.length]!;
    out.push(`- ${date} — with ${who} at ${PLACES[d % PLACES.length]}: ${what} ([memory/${date}.md#L${4 + (d % 9)}])`);
    if (extra && d === extra.after) out.push(extra.line);
  }
  out.push("<!-- membank:end facts -->", "", "Notes by hand: Mara ignores Slack after 5pm.", "");
  return out.join("\n");
}

/** A long session digest of one day (memory/YYYY-MM-DD-sessions.md), one turn a line. */
function digest(turns: number): string {
  const out = ["# Sessions 2021-06-01", ""];
  for (let i = 0; i < turns; i++) {
    const hh = String(8 + Math.floor(i / 60)).padStart(2, "0");
    const mm = String(i % 60).padStart(2, "0");
    out.push(
      `- **${i % 3 ? "user" : "assistant"}** (${hh}:${mm}): ${THINGS[(i * 5) % THINGS.length]} — ${PEOPLE[i % PEOPLE.length]} #${i}`,
    );
  }
  return `${out.join("\n")}\n`;
}

let workspaces: Workspace[] = [];
afterEach(() => {
  closeIndexes();
  for (const w of workspaces) rmSync(w.root, { recursive: true, force: true });
  workspaces = [];
});

type Row = { id: number; start_line: number; end_line: number; text: string; hash: string; date: string | null };

function chunkRows(w: Workspace): Row[] {
  return openIndex(w)
    .db.prepare("SELECT id, start_line, end_line, text, hash, date, cjk FROM chunks ORDER BY path, start_line")
    .all() as Row[];
}

/** What a search for each word returns from the chunk FTS tables: (start line) of each hit. */
function answers(w: Workspace, words: string[]): Record<string, number[]> {
  const db = openIndex(w).db;
  const out: Record<string, number[]> = {};
  for (const word of words) {
    out[word] = db
      .prepare(
        "SELECT c.start_line FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts), c.start_line",
      )
      .pluck()
      .all(`"${word}"`) as number[];
  }
  return out;
}

const withoutIds = (rows: Row[]) => rows.map(({ id: _id, ...r }) => r);

/** The line store (recall's rows) without ids, and the totals BM25 normalises by. */
function lineStore(w: Workspace): { rows: unknown[]; count?: string; avg?: string } {
  const db = openIndex(w).db;
  const meta = (key: string) => db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key) as string;
  return {
    rows: db
      .prepare(
        // A file's lines may be stored counted from its end (line_bases): compared by line number.
        "SELECT l.path, CASE WHEN b.base IS NULL THEN l.pos ELSE b.base - l.pos END AS line, l.date, l.text, l.ntok FROM lines l LEFT JOIN line_bases b ON b.path = l.path ORDER BY l.path, line",
      )
      .all(),
    count: meta("lines_count"),
    avg: meta("lines_avg_ntok"),
  };
}

let clock = Date.now() + 10_000;
/** A later mtime at every call (two writes in one millisecond with the same size must still look changed). */
async function touch(w: Workspace, rel: string): Promise<void> {
  clock += 2_000;
  await utimes(path.join(w.root, rel), new Date(clock), new Date(clock));
}

describe("a changed page keeps the chunk rows of its unchanged text", () => {
  it("a fact inserted mid-page changes a few chunks; rows and answers equal a rebuilt index's", async () => {
    const rel = "bank/entities/Mara.md";
    const w = await makeWorkspace({
      [rel]: page(400),
      "memory/2021-07-20.md": "# 2021-07-20\n\nsigned with Fjordline at last, champagne w/ Mara\n",
    });
    workspaces.push(w);
    await syncIndex(w);
    const before = chunkRows(w);
    expect(before.length).toBeGreaterThan(20);

    writeFileSync(
      path.join(w.root, rel),
      page(400, {
        after: 200,
        line: "- 2021-07-20 — Mara signed the Fjordline contract (finally!) ([memory/2021-07-20.md#L3])",
      }),
    );
    await touch(w, rel);
    const report = await syncIndex(w);
    expect(report.changed).toBe(1);
    const after = chunkRows(w);

    // The chunks around the new line are new rows; every other chunk keeps its row (new rows
    // get ids above every old one, so a delete and re-insert of the page would show here).
    const maxBefore = Math.max(...before.map((r) => r.id));
    const fresh = after.filter((r) => r.id > maxBefore);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length).toBeLessThanOrEqual(4);
    const words = ["fjordline", "sintra", "semicolons", "bergen", "slack", "lindqvist"];
    const incremental = answers(w, words);
    expect((incremental.fjordline ?? []).length).toBeGreaterThanOrEqual(1); // two when it falls in an overlap

    const db = openIndex(w).db;
    for (const t of ["chunks_fts", "chunks_tri"]) db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run();
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const lines = lineStore(w);

    // The same files indexed from scratch: the same rows (but ids) and the same answers.
    closeIndexes();
    await syncIndex(w, { full: true });
    expect(withoutIds(after)).toEqual(withoutIds(chunkRows(w)));
    expect(answers(w, words)).toEqual(incremental);
    expect(lineStore(w)).toEqual(lines);
  });

  it("a log that changed keeps its unchanged chunks' vectors; text that left it is no longer found", async () => {
    const rel = "memory/2021-06-01-sessions.md";
    const original = digest(300);
    const w = await makeWorkspace({ [rel]: original });
    workspaces.push(w);
    const embedder = hashEmbedder(32);
    const choice = { embedder, provider: "hash-test" };
    const first = await syncIndex(w, { embedder: choice });
    expect(first.embedded).toBe(first.chunks);

    // One turn deleted near the end, two appended (the digest of a day that went on).
    const edited = original
      .replace(/^- .*#290\n/m, "")
      .concat(
        "- **user** (13:01): Quokkasoft wants an answer by Monday\n- **assistant** (13:02): noted, drafting it\n",
      );
    writeFileSync(path.join(w.root, rel), edited);
    await touch(w, rel);
    const second = await syncIndex(w, { embedder: choice });
    expect(second.embedded).toBeGreaterThan(0);
    expect(second.embedded).toBeLessThanOrEqual(3);
    const db = openIndex(w).db;
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(
      count("SELECT count(*) FROM chunk_vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.id)"),
    ).toBe(0);
    expect(
      count("SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.id = c.id)"),
    ).toBe(0);
    expect(answers(w, ["quokkasoft"]).quokkasoft).toHaveLength(1);
    expect(count("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '\"#290\"' OR chunks_fts MATCH '290'")).toBe(
      0,
    );
  });

  it("after any edits (lines added, dropped, moved, duplicated) the rows equal a rebuilt index's", async () => {
    const pool = [
      ...THINGS,
      ...PEOPLE.map((p) => `- talked to ${p}`),
      "## Notes",
      "",
      "",
      "- same line twice",
      "- same line twice",
    ];
    const lines = fc.array(fc.constantFrom(...pool), { minLength: 0, maxLength: 120, size: "large" });
    // A page and the same page after a few edits: most of its text stays, shifted.
    const edit = fc.record({ at: fc.nat(), del: fc.boolean(), line: fc.constantFrom(...pool) });
    const pair = fc.tuple(lines, fc.array(edit, { maxLength: 6 })).map(([ls, edits]) => {
      const next = [...ls];
      for (const e of edits) {
        if (e.del && next.length > 0) next.splice(e.at % next.length, 1);
        else next.splice(e.at % (next.length + 1), 0, e.line);
      }
      return [`${ls.join("\n")}\n`, `${next.join("\n")}\n`] as const;
    });
    const rel = "bank/observations.md";
    const w = await makeWorkspace({ [rel]: "" });
    workspaces.push(w);
    const other = await makeWorkspace({ [rel]: "" });
    workspaces.push(other);
    // Small chunks, so a page of a few dozen lines has many.
    for (const x of [w, other]) x.config.index.chunkTokens = 40;
    await fc.assert(
      fc.asyncProperty(pair, async ([a, b]) => {
        writeFileSync(path.join(w.root, rel), a);
        await touch(w, rel);
        await syncIndex(w);
        writeFileSync(path.join(w.root, rel), b);
        await touch(w, rel);
        await syncIndex(w);
        writeFileSync(path.join(other.root, rel), b);
        await syncIndex(other, { full: true });
        expect(withoutIds(chunkRows(w))).toEqual(withoutIds(chunkRows(other)));
        expect(lineStore(w)).toEqual(lineStore(other));
        const words = ["semicolons", "ines", "twice", "notes"];
        expect(answers(w, words)).toEqual(answers(other, words));
      }),
      { numRuns: 25 },
    );
    const db = openIndex(w).db;
    for (const t of ["chunks_fts", "chunks_tri"]) db.prepare(`INSERT INTO ${t}(${t}) VALUES ('integrity-check')`).run();
  });

  it("over nights of files written, edited and deleted, the line store and its totals equal a rebuilt index's", async () => {
    // The totals move by each sync's difference (lines.ts refreshLineStats): they must not drift.
    const paths = ["memory/2021-03-02.md", "memory/2021-03-02-sessions.md", "bank/entities/Oona.md", "MEMORY.md"];
    const pool = [...THINGS, "", "## Retain", "- W @Oona: moved to Bergen in March", "- same line twice", "ok"];
    const night = fc.array(
      fc.record({
        file: fc.constantFrom(...paths),
        lines: fc.option(fc.array(fc.constantFrom(...pool), { maxLength: 30 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4 },
    );
    const w = await makeWorkspace({});
    workspaces.push(w);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(night, { minLength: 1, maxLength: 5 }), async (nights) => {
        for (const changes of nights) {
          for (const c of changes) {
            const abs = path.join(w.root, c.file);
            if (c.lines === undefined) rmSync(abs, { force: true });
            else {
              mkdirSync(path.dirname(abs), { recursive: true });
              writeFileSync(abs, `${c.lines.join("\n")}\n`);
              await touch(w, c.file);
            }
          }
          await syncIndex(w);
        }
        const incremental = lineStore(w);
        const other = await makeWorkspace({});
        workspaces.push(other);
        for (const p of paths) {
          try {
            mkdirSync(path.dirname(path.join(other.root, p)), { recursive: true });
            writeFileSync(path.join(other.root, p), readFileSync(path.join(w.root, p)));
          } catch {
            // not in this state
          }
        }
        await syncIndex(other, { full: true });
        expect(incremental).toEqual(lineStore(other));
        round++;
      }),
      { numRuns: 15 },
    );
    expect(round).toBe(15);
  });
});
