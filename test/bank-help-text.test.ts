// membank's own help text on bank pages (the intro of bank/opinions.md, "Your own notes go
// here" on every entity page) is how a page is kept, not memory: recall never answers with it,
// while a person's own note beside it on the same page is still found.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes, syncIndex } from "../src/index/index.js";
import { recall } from "../src/recall/recall.js";
import { reflect } from "../src/reflect/index.js";
import { EVOLVING, workspaceFrom } from "./reflect-support.js";

let w: Awaited<ReturnType<typeof workspaceFrom>>;

beforeAll(async () => {
  w = await workspaceFrom(EVOLVING, {});
  await reflect(w.ws);
  // A note of the user's own under "## Notes" of an entity page, outside membank's regions.
  const page = path.join(w.dir, "bank/entities/Ana.md");
  const text = await readFile(page, "utf8");
  await writeFile(page, text.replace("## Notes\n", "## Notes\n\nAna keeps the spare allotment keys in her shed.\n"));
  await syncIndex(w.ws);
});

afterAll(async () => {
  closeIndexes();
  await rm(w.dir, { recursive: true, force: true });
});

const answers = async (q: string) => (await recall(w.ws, q)).results.map((r) => `${r.source}\n${r.content}`).join("\n");

describe("bank pages' help text", () => {
  it("is not an answer about how confidence moves or where notes go", async () => {
    const a = await answers("how does confidence move, can I change it by hand?");
    expect(a).not.toMatch(/Confidence moves gradually/);
    expect(a).not.toMatch(/reflect starts from your value/);
    const b = await answers("where do my own notes go?");
    expect(b).not.toMatch(/Your own notes go here/);
    expect(b).not.toMatch(/to hand an edited region back/);
  });

  it("leaves the person's own note on the same page findable", async () => {
    const a = await answers("where are the spare allotment keys?");
    expect(a).toMatch(/Ana keeps the spare allotment keys in her shed/);
  });
});
