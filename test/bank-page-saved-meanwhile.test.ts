// A bank page the person saves while reflect is working (their editor's autosave, an agent's
// write during the nightly): reflect read the page at its start and renders from that text, so
// writing its result would replace the person's new words. Real git, real files; the person's
// save is made from inside the run, between reflect's read and its write.
import { appendFile, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { copyLog, EVOLVING, git, workspaceFrom } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("a bank page saved by its person while reflect runs", () => {
  it("keeps the person's words: nothing written or committed that run, and the next run adds membank's update around them", async () => {
    const { dir, ws } = await workspaceFrom(EVOLVING, { logs: (n) => n < "2026-01-10" });
    dirs.push(dir);
    await reflect(ws);
    const page = path.join(dir, "bank/entities/Ana.md");
    const head = git(dir, "rev-parse", "HEAD").trim();
    const note = "- Ana's birthday is 3 March; she'd like a plant, not flowers.\n";
    await copyLog(dir, "2026-01-10.md");
    let saved = false;
    const during = reflect(ws, {
      llm: {
        provider: "local",
        // Asked after every page was read, before any is written: the person saves Ana's page now.
        async summarizeEntity() {
          if (!saved) await appendFile(page, note);
          saved = true;
          return null;
        },
      },
    });
    await expect(during).rejects.toThrow(/bank\/entities\/Ana\.md changed while membank was working/);
    expect(saved).toBe(true);
    expect(await readFile(page, "utf8")).toContain(note);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(head);

    const next = await reflect(ws);
    const text = await readFile(page, "utf8");
    expect(text).toContain(note);
    expect(text).toContain("every day this week");
    // The page holds the person's edit, so it is theirs to commit; the rest is committed.
    expect(next.left?.map((l) => l.path)).toEqual(["bank/entities/Ana.md"]);
    expect(git(dir, "show", "--name-only", "--format=", "HEAD")).not.toContain("bank/entities/Ana.md");
    expect(git(dir, "show", "HEAD:bank/entities/Ana.md")).not.toContain(note.trim());
  });
});
