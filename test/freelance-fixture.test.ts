// A second workspace written the way a person writes (fixtures/freelance): a designer's
// notes with a client, a physio and a brother, prose days without a Retain section, and a
// belief given up in other words ("the pricing thing was overblown", stated at c=0.8).
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { git } from "./reflect-support.js";

const repoRoot = path.resolve(import.meta.dirname, "..");
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-freelance-"));
  await cp(path.join(repoRoot, "fixtures/freelance"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: notes");
  await reflect(await openWorkspace(dir), { now: new Date("2026-06-03T12:00:00Z") });
}, 60_000);

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe("fixtures/freelance after one reflect", () => {
  it("weakens a belief its holder later calls overblown, though the restatement says c=0.8", async () => {
    const page = await readFile(path.join(dir, "bank/opinions.md"), "utf8");
    const block = page.split("### ").find((b) => b.startsWith("Figma's new pricing"))!;
    const confidence = Number(/- confidence: (\d\.\d\d)/.exec(block)![1]);
    expect(confidence).toBeLessThan(0.6);
    expect(block).toMatch(/- status: (weakened|reversed)/);
    expect(block).toMatch(/contradicting \(2 days\)/);
  });

  it("gives people and places pages, but no page to half a name or a weekday", async () => {
    const pages = (await readdir(path.join(dir, "bank/entities"))).sort();
    expect(pages).toEqual(expect.arrayContaining(["Ben.md", "Okafor.md", "Priya.md", "Sam.md"]));
    for (const junk of ["Oak.md", "Raman.md", "Tuesdays.md"]) expect(pages).not.toContain(junk);
  });
});
