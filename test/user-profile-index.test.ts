import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes, getMemoryLines, search, syncIndex } from "../src/index/index.js";
import { recall } from "../src/recall/recall.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

// USER.md as OpenClaw 2026.9.6 seeds a new workspace (docs/reference/templates/USER.md, copied as written).
const TEMPLATE = readFileSync(path.join(import.meta.dirname, "fixtures/openclaw-user/USER.md"), "utf8");

// The template's format filled in by an agent over a few months: one preference changed.
const DIRECTIVES = `# USER.md - User Model

## Directives

<!-- observed: 2026-02-03 | status: superseded -->

- Always paste every command's full output in progress reports.

<!-- observed: 2026-08-19 | status: active -->

- Prefer a one-line progress report; paste command output only when something failed.

<!-- observed: 2026-08-21 | status: active -->

- Never schedule calls before 10am Lisbon time.
`;

// A profile written by hand, no metadata at all.
const FREE_FORM =
  "Name: Sam\n- Likes short answers, no preamble\n- Reading: Dune...\n- works on the allotment most Saturdays\n";

const texts = (r: { results: { content?: string; snippet?: string }[] }) =>
  r.results.map((x) => x.content ?? x.snippet ?? "").join("\n");

let seeded: Workspace;
let filled: Workspace;
let own: Workspace;

beforeAll(async () => {
  seeded = await makeWorkspace({
    "USER.md": TEMPLATE,
    "MEMORY.md": "# MEMORY.md\n\n- The garage door code changed in March.\n",
  });
  filled = await makeWorkspace({ "USER.md": DIRECTIVES });
  own = await makeWorkspace({ "USER.md": FREE_FORM });
});

afterAll(() => {
  closeIndexes();
  for (const w of [seeded, filled, own]) rmSync(w.root, { recursive: true, force: true });
});

describe("OpenClaw's seeded USER.md", () => {
  it("does not answer with the template's example or placeholder directive", async () => {
    const recalled = await recall(seeded, "how does the user like progress updates during implementation work?");
    expect(texts(recalled)).not.toMatch(/concise progress updates/);
    expect(texts(recalled)).not.toMatch(/Prefer \.\.\./);
    const found = await search(seeded, "concise progress updates implementation");
    expect(found.results.filter((r) => r.path === "USER.md")).toEqual([]);
    expect((await search(seeded, "Prefer")).results.map((r) => r.snippet).join("\n")).not.toMatch(/Prefer \.\.\./);
  });

  it("leaves the file as written, every line readable with get", async () => {
    await syncIndex(seeded);
    expect(readFileSync(path.join(seeded.root, "USER.md"), "utf8")).toBe(TEMPLATE);
    const example = (await getMemoryLines(seeded, "USER.md", { from: 10, lines: 1 })).text;
    expect(example).toBe("- Prefer concise progress updates during implementation work.");
  });

  it("a second index with nothing new changes nothing", async () => {
    await syncIndex(seeded);
    expect(await syncIndex(seeded)).toMatchObject({ rebuilt: false, changed: 0, removed: 0 });
  });
});

describe("USER.md directives with a metadata comment", () => {
  it("answers with the active directive, not the superseded one", async () => {
    const recalled = await recall(filled, "how does the user want progress reports and command output?");
    expect(texts(recalled)).toMatch(/one-line progress report/);
    expect(texts(recalled)).not.toMatch(/full output/);
    expect(texts(await search(filled, "every command's full output"))).not.toMatch(/full output/);
    expect((await getMemoryLines(filled, "USER.md", { from: 7, lines: 1 })).text).toMatch(/full output/);
  });

  it("finds an active directive with a real date", async () => {
    const recalled = await recall(filled, "when can I schedule a call with the user?");
    expect(
      recalled.results.some((r) => r.source.startsWith("USER.md#") && /10am Lisbon/.test(texts({ results: [r] }))),
    ).toBe(true);
  });
});

describe("a free-form USER.md", () => {
  it("is indexed and recalled whole", async () => {
    const recalled = await recall(own, "does Sam like short answers?");
    expect(texts(recalled)).toMatch(/Likes short answers/);
    for (const q of ["Sam", "Dune", "allotment Saturdays"]) {
      expect((await search(own, q)).results.map((r) => r.path)).toContain("USER.md");
    }
  });
});
