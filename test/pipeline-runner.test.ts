import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listRunRecords, runsDir } from "../src/pipeline/record.js";
import { executePipeline } from "../src/pipeline/runner.js";
import type { PipelineDefinition, RunRecord } from "../src/pipeline/types.js";
import { lockPath } from "../src/workspace/lock.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let tmp: string;
let ws: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-runner-"));
  await writeFile(path.join(tmp, "MEMORY.md"), "# Core\n");
  ws = await openWorkspace(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface S {
  calls: string[];
  produced?: number;
}

/** A pipeline whose steps write real files; `fail` names a step that throws. */
function pipeline(opts: { fail?: string; writes?: boolean } = {}): PipelineDefinition<S> {
  const step = (name: string, body: (s: S) => Promise<Record<string, number>>) => ({
    name,
    description: `the ${name} step`,
    async run(ctx: { state: S; ws: Workspace }) {
      ctx.state.calls.push(name);
      if (opts.fail === name) throw new Error(`${name} could not read memory/2026-01-01.md:3`);
      const counts = await body(ctx.state);
      const written = opts.writes === false ? [] : [`memory/${name}.md`];
      for (const f of written) await writeFile(path.join(ctx.ws.root, f.replace("memory/", "")), `${name}\n`);
      return { counts, written };
    },
  });
  return {
    name: "test",
    description: "a -> b -> c",
    createState: () => ({ calls: [] }),
    steps: [
      step("a", async (s) => {
        s.produced = 3;
        return { items: 3 };
      }),
      step("b", async (s) => ({ doubled: (s.produced ?? 0) * 2 })),
      step("c", async () => ({})),
    ],
    summarize: (s, r) => [`calls: ${s.calls.join(",")}`, `status: ${r.status}`],
  };
}

async function onlyRecord(): Promise<RunRecord> {
  const records = await listRunRecords(ws);
  expect(records).toHaveLength(1);
  return records[0] as RunRecord;
}

describe("pipeline runner", () => {
  it("runs steps in order, passes typed state, times each step and writes a run record", async () => {
    const lines: string[] = [];
    const record = await executePipeline(ws, pipeline(), { log: (l) => lines.push(l) });
    expect(record.status).toBe("done");
    expect(record.steps.map((s) => [s.name, s.status])).toEqual([
      ["a", "ok"],
      ["b", "ok"],
      ["c", "ok"],
    ]);
    expect(record.steps[1]?.counts).toEqual({ doubled: 6 });
    for (const s of record.steps) expect(s.durationMs).toBeGreaterThanOrEqual(0);
    expect(record.written).toEqual(["memory/a.md", "memory/b.md", "memory/c.md"]);
    expect(record.summary).toEqual(["calls: a,b,c", "status: done"]);
    expect(lines.some((l) => l.startsWith("[2/3] b ok in"))).toBe(true);
    expect(await onlyRecord()).toEqual(record);
    const files = await readdir(runsDir(ws));
    expect(files).toEqual([`${record.id}.json`]);
    // The lock is released.
    await expect(readdir(lockPath(ws))).rejects.toThrow();
  });

  it("a failing step stops the run: later steps do not run, the error is recorded", async () => {
    const record = await executePipeline(ws, pipeline({ fail: "b" }));
    expect(record.status).toBe("failed");
    expect(record.steps.map((s) => s.status)).toEqual(["ok", "failed", "skipped"]);
    expect(record.steps[1]?.error).toBe("b could not read memory/2026-01-01.md:3");
    expect(record.error).toEqual({ step: "b", message: 'step "b" failed: b could not read memory/2026-01-01.md:3' });
    expect(record.summary).toEqual(["calls: a,b", "status: failed"]);
    const onDisk = JSON.parse(await readFile(path.join(runsDir(ws), `${record.id}.json`), "utf8"));
    expect(onDisk.status).toBe("failed");
    expect(onDisk.steps[2].status).toBe("skipped");
  });

  it("a run where no step changed anything is 'nothing'", async () => {
    const record = await executePipeline(ws, pipeline({ writes: false }));
    expect(record.status).toBe("nothing");
  });

  it("an abort signal lets the current step finish and skips the rest", async () => {
    const abort = new AbortController();
    const def = pipeline();
    const first = def.steps[0];
    if (!first) throw new Error("no step");
    const inner = first.run.bind(first);
    first.run = async (ctx) => {
      const out = await inner(ctx);
      abort.abort("SIGTERM");
      return out;
    };
    const record = await executePipeline(ws, def, { signal: abort.signal });
    expect(record.status).toBe("aborted");
    expect(record.steps.map((s) => s.status)).toEqual(["ok", "skipped", "skipped"]);
    expect(record.error?.message).toMatch(/stopped before step "b" \(SIGTERM\)/);
  });

  it("a run record left 'running' by a dead process is marked interrupted", async () => {
    const first = await executePipeline(ws, pipeline());
    const stale = { ...first, id: "2000-01-01T00-00-00-000Z", status: "running", pid: 999999 };
    await writeFile(path.join(runsDir(ws), `${stale.id}.json`), JSON.stringify(stale));
    await executePipeline(ws, pipeline());
    const records = await listRunRecords(ws);
    expect(records.map((r) => r.status)).toEqual(["interrupted", "done", "done"]);
  });

  it("keeps the newest run records, and the last finished run the next night starts from", async () => {
    const first = await executePipeline(ws, pipeline());
    // 120 older records: one finished run long ago, then only failed ones.
    for (let i = 0; i < 120; i++) {
      const id = `2001-01-01T00-00-${String(i).padStart(3, "0")}`;
      const status = i === 0 ? "done" : "failed";
      await writeFile(path.join(runsDir(ws), `${id}.json`), JSON.stringify({ ...first, id, status }));
    }
    // Drop the real finished run so the only finished one is the oldest.
    await rm(path.join(runsDir(ws), `${first.id}.json`));
    await executePipeline(ws, pipeline({ fail: "a" }));
    const names = (await readdir(runsDir(ws))).sort();
    expect(names).toHaveLength(101);
    expect(names[0]).toBe("2001-01-01T00-00-000.json");
    expect(names[1]).toBe("2001-01-01T00-00-021.json");
    // With a finished run among the newest, the old one is no longer needed.
    await executePipeline(ws, pipeline());
    const after = (await readdir(runsDir(ws))).sort();
    expect(after).toHaveLength(100);
    expect(after[0]).toBe("2001-01-01T00-00-022.json");
  });
});

describe("run records of several pipelines", () => {
  it("pruning keeps each pipeline's newest finished run, even when only another pipeline's are recent", async () => {
    const first = await executePipeline(ws, pipeline());
    await rm(path.join(runsDir(ws), `${first.id}.json`));
    const put = (id: string, pipelineName: string, status: string) =>
      writeFile(path.join(runsDir(ws), `${id}.json`), JSON.stringify({ ...first, id, pipeline: pipelineName, status }));
    // Long ago: a finished "reindex" and a finished "test"; then 110 records, "reindex" ones
    // failed, "test" ones done, a damaged file among them; tonight "test" runs again.
    await put("2001-01-01T00-00-000", "reindex", "done");
    await put("2001-01-01T00-00-001", "reindex", "nothing");
    await put("2001-01-01T00-00-002", "test", "done");
    for (let i = 3; i < 113; i++)
      await put(
        `2001-01-01T00-00-${String(i).padStart(3, "0")}`,
        i % 2 ? "reindex" : "test",
        i % 2 ? "failed" : "done",
      );
    await writeFile(path.join(runsDir(ws), "2001-01-01T00-00-050.json"), "{ not json");
    await executePipeline(ws, pipeline());
    const names = (await readdir(runsDir(ws))).sort();
    // The newest 100 stay, and the newest finished "reindex" run, which none of them is.
    expect(names).toHaveLength(101);
    expect(names[0]).toBe("2001-01-01T00-00-001.json");
    expect(names[1]).toBe("2001-01-01T00-00-014.json");
  });
});

describe("memory between steps", () => {
  it("a step's garbage is collected before the next step starts, so the run's peak is one step's", async () => {
    const heapAtStart: number[] = [];
    const def: PipelineDefinition<{ kept?: unknown }> = {
      name: "memory",
      description: "big garbage -> small step",
      createState: () => ({}),
      steps: [
        {
          name: "big",
          description: "parses a lot and keeps a little",
          async run(ctx) {
            // ~100 MB of short strings in objects, held across awaits (so V8 moves them to the
            // old generation, which only a full collection frees), then dropped but for one.
            let rows: { id: number; text: string }[] = [];
            for (let i = 0; i < 1_000_000; i++) rows.push({ id: i, text: `fact ${i} about @Mara and the offsite` });
            await new Promise((r) => setTimeout(r, 10));
            ctx.state.kept = rows[42];
            rows = [];
            return { counts: { rows: 1_000_000 } };
          },
        },
        {
          name: "small",
          description: "looks at the heap",
          async run() {
            heapAtStart.push(process.memoryUsage().heapUsed);
            return {};
          },
        },
      ],
    };
    const before = process.memoryUsage().heapUsed;
    const record = await executePipeline(ws, def);
    expect(record.steps.map((s) => s.status)).toEqual(["ok", "ok"]);
    // Without a collection between the steps the heap still holds the ~100 MB of rows here.
    expect(heapAtStart[0]! - before).toBeLessThan(40 * 1024 * 1024);
  });

  it("holds V8's young generation at its size during a run and gives V8's flags back after, also when a step fails", async () => {
    // The flag hash is in V8's code-cache tag: the CLI's cache written at exit must match the next start's flags.
    const before = v8.cachedDataVersionTag();
    const during: number[] = [];
    const def = (fail: boolean): PipelineDefinition<object> => ({
      name: "young",
      description: "one step",
      createState: () => ({}),
      steps: [
        {
          name: "only",
          description: "looks at V8's flags",
          async run() {
            during.push(v8.cachedDataVersionTag());
            if (fail) throw new Error("boom");
            return {};
          },
        },
      ],
    });
    expect((await executePipeline(ws, def(false))).status).toBe("nothing");
    expect(v8.cachedDataVersionTag()).toBe(before);
    expect((await executePipeline(ws, def(true))).status).toBe("failed");
    expect(v8.cachedDataVersionTag()).toBe(before);
    // In the run: --semi-space-growth-factor=1 (peak RSS of the 10-year nightly 152-155 -> 135-144 MB).
    expect(during).toHaveLength(2);
    for (const tag of during) expect(tag).not.toBe(before);
  });
});
