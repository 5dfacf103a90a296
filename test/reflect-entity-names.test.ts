// Entity pages under portable, case-insensitive names (issue 13, item 9), with pages that
// an older membank (or a person) already wrote.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reflect } from "../src/reflect/index.js";
import { defaultConfig } from "../src/workspace/config.js";
import type { Workspace } from "../src/workspace/workspace.js";

let root: string;
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function workspace(files: Record<string, string>): Promise<Workspace> {
  root = await mkdtemp(path.join(tmpdir(), "membank-names-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  return { root, config: defaultConfig() };
}

const pages = async () => (await readdir(path.join(root, "bank/entities"))).sort();

describe("entity page names", () => {
  it("files new spellings under the page a person already has, whatever the case", async () => {
    const ws = await workspace({
      "memory/2026-03-02.md":
        "## Retain\n- W @peter: Moved to Lisbon.\n- W @PETER: Works remotely.\n- S: @peter again\n",
      "bank/entities/Peter.md": "# Peter\n\nMy own notes about Peter.\n",
    });
    await reflect(ws, { commit: false, now: new Date("2026-03-03T00:00:00Z") });
    expect(await pages()).toEqual(["Peter.md"]);
    const text = await readFile(path.join(root, "bank/entities/Peter.md"), "utf8");
    expect(text).toContain("My own notes about Peter.");
    expect(text).toContain("Moved to Lisbon.");
    expect(text).toContain("Works remotely.");
  });

  it("leaves a legacy page with a Windows device name alone and writes the portable one", async () => {
    const legacy = "# CON\n\n<!-- membank:begin facts -->\nold\n<!-- membank:end facts -->\n";
    const ws = await workspace({
      "memory/2026-03-02.md": "## Retain\n- W @CON: The conference badge arrived.\n",
      "bank/entities/CON.md": legacy,
    });
    const report = await reflect(ws, { commit: false, now: new Date("2026-03-03T00:00:00Z") });
    const names = await pages();
    expect(names).toHaveLength(2);
    expect(names).toContain("CON.md");
    const portable = names.find((n) => /^CON~[0-9a-f]{10}\.md$/.test(n))!;
    expect(report.pagesWritten).toContain(`bank/entities/${portable}`);
    expect(await readFile(path.join(root, "bank/entities/CON.md"), "utf8")).toBe(legacy);
    expect(await readFile(path.join(root, "bank/entities", portable), "utf8")).toContain(
      "The conference badge arrived.",
    );
    // Stable: a second run writes nothing.
    const again = await reflect(ws, { commit: false, now: new Date("2026-03-03T00:00:00Z") });
    expect(again.pagesWritten).toEqual([]);
  });
});
