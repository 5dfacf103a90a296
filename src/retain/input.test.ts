// Bad input that must become a diagnostic (issue 13, item 10): never a crash, never a silent change.
import { mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../workspace/config.js";
import type { Workspace } from "../workspace/workspace.js";
import { parseRetain } from "./parse.js";
import { readFacts } from "./read.js";

const P = "memory/2026-03-04.md";

describe("a Retain section inside an HTML comment", () => {
  it("is not read, while the real one after it is", () => {
    const text = [
      "# Wed",
      "",
      "<!-- old draft, kept for later",
      "## Retain",
      "- W @Peter: this was commented out",
      "-->",
      "",
      "Narrative.",
      "",
      "## Retain",
      "- W @Mara: real fact",
      "<!--",
      "## Retain",
      "- W @Jonas: also commented out",
      "-->",
      "- S: after the comment",
      "",
    ].join("\n");
    const r = parseRetain(P, text);
    expect(r.facts.map((f) => f.content)).toEqual(["real fact", "after the comment"]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("pathological nesting", () => {
  it("a 1,000-deep nested list is bounded: quick, shallow facts kept, deep lines reported", () => {
    let text = "## Retain\n";
    for (let i = 0; i < 1000; i++) text += `${"  ".repeat(i)}- W @Peter: level ${i}\n`;
    const t = performance.now();
    const r = parseRetain(P, text);
    expect(performance.now() - t).toBeLessThan(3000);
    expect(r.facts.length).toBeGreaterThan(20);
    expect(r.facts.length + r.diagnostics.length).toBe(1000);
    expect(r.diagnostics[0]).toEqual({
      path: P,
      line: expect.any(Number),
      reason: expect.stringMatching(/nested too deeply/),
    });
  });

  it("a line of 50,000 '>' is one diagnostic, quickly", () => {
    const t = performance.now();
    const r = parseRetain(P, `## Retain\n- W: fine\n${">".repeat(50_000)} W: x\n`);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(r.facts.map((f) => f.content)).toEqual(["fine"]);
    expect(r.diagnostics).toEqual([
      { path: P, line: 3, reason: expect.stringMatching(/^nested too deeply \(50001 columns/) },
    ]);
  });
});

describe("readFacts on files that are not clean text", () => {
  let root: string;
  let ws: Workspace;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "membank-input-"));
    ws = { root, config: defaultConfig() };
    await mkdir(path.join(root, "memory"), { recursive: true });
    // A log saved as Latin-1 by an old editor: "Café" and "crème" are single bytes.
    await writeFile(
      path.join(root, "memory/2026-03-02.md"),
      Buffer.concat([
        Buffer.from("# Mon\n\nMet at the caf"),
        Buffer.from([0xe9]),
        Buffer.from(".\n\n## Retain\n- W @Peter: likes tea\n- O @Peter: prefers cr"),
        Buffer.from([0xe8]),
        Buffer.from("me br\u00fbl\u00e9e\n"),
      ]),
    );
    // A runaway log: 2 GB, sparse, so nothing is really written.
    await writeFile(path.join(root, "memory/2026-03-03.md"), "## Retain\n- W: never read\n");
    await truncate(path.join(root, "memory/2026-03-03.md"), 2 * 1024 ** 3);
    await writeFile(path.join(root, "memory/2026-03-04.md"), "## Retain\n- W @Mara: normal day\n");
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("names the first non-UTF-8 byte, skips facts with bad bytes, reads the rest", async () => {
    const r = await readFacts(ws);
    expect(r.facts.map((f) => `${f.source.path}:${f.source.line} ${f.content}`)).toEqual([
      "memory/2026-03-02.md:6 likes tea",
      "memory/2026-03-04.md:2 normal day",
    ]);
    const latin = r.diagnostics.filter((d) => d.path === "memory/2026-03-02.md");
    expect(latin).toEqual([
      { path: "memory/2026-03-02.md", line: 3, reason: expect.stringMatching(/^not valid UTF-8 \(byte 0xE9, 2 line/) },
      { path: "memory/2026-03-02.md", line: 7, reason: expect.stringMatching(/^not valid UTF-8: not read as a fact/) },
    ]);
  });

  it("skips a file over 16 MiB with a diagnostic naming it, without reading it", async () => {
    const t = performance.now();
    const r = await readFacts(ws);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(r.diagnostics.filter((d) => d.path === "memory/2026-03-03.md")).toEqual([
      { path: "memory/2026-03-03.md", line: 1, reason: expect.stringMatching(/^file is 2147483648 bytes, over the/) },
    ]);
  });
});
