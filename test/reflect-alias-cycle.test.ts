import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { entityReport } from "../src/mcp/server.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { git, membank } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const read = (dir: string, rel: string) => readFile(path.join(dir, rel), "utf8");

describe("alias cycles", () => {
  it("reports Mara <-> Jonas with both pages and lines and never swaps their facts", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-alias-"));
    dirs.push(dir);
    await mkdir(path.join(dir, "memory"));
    await writeFile(
      path.join(dir, "memory/2026-02-02.md"),
      "# Mon 2 Feb\n\nMet both at the market.\n\n## Retain\n- W @Mara: Runs the cheese stall on Saturdays.\n- W @Jonas: Works night shifts at the bakery.\n- O(c=0.7) @Mara: Likes her coffee black\n",
    );
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "user: logs");
    expect((await membank("reflect", "--workspace", dir)).code).toBe(0);

    // Someone confuses the two and makes each page an alias of the other.
    const mara = await read(dir, "bank/entities/Mara.md");
    const jonas = await read(dir, "bank/entities/Jonas.md");
    await writeFile(path.join(dir, "bank/entities/Mara.md"), mara.replace("aliases: []", "aliases: [Jonas]"));
    await writeFile(
      path.join(dir, "bank/entities/Jonas.md"),
      jonas.replace("aliases: []", "title: Jonas B.\naliases:\n  - '@Mara'"),
    );
    git(dir, "commit", "-q", "-am", "user: aliases");
    await writeFile(
      path.join(dir, "memory/2026-02-03.md"),
      "# Tue 3 Feb\n\n## Retain\n- W @Mara: Opened a second stall in Linz.\n- W @Jonas: Moved to the day shift.\n",
    );

    const res = await membank("reflect", "--workspace", dir);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/bank\/entities\/Mara\.md:2: alias "Jonas" is part of an alias cycle/);
    expect(res.stderr).toMatch(/bank\/entities\/Jonas\.md:4: alias "Mara" is part of an alias cycle/);
    expect(res.stderr).toContain("(bank/entities/Mara.md:2 aliases Jonas, bank/entities/Jonas.md:4 aliases Mara)");

    const maraAfter = await read(dir, "bank/entities/Mara.md");
    const jonasAfter = await read(dir, "bank/entities/Jonas.md");
    expect(maraAfter).toContain("Runs the cheese stall on Saturdays.");
    expect(maraAfter).toContain("Opened a second stall in Linz.");
    expect(maraAfter).not.toContain("bakery");
    expect(maraAfter).not.toContain("day shift");
    expect(jonasAfter).toContain("Works night shifts at the bakery.");
    expect(jonasAfter).toContain("Moved to the day shift.");
    expect(jonasAfter).not.toContain("cheese");
    expect(jonasAfter).not.toContain("Linz");
    // The person's front matter is theirs: untouched.
    expect(maraAfter.startsWith("---\naliases: [Jonas]\n---\n")).toBe(true);

    // The same again: same report, no new commit.
    const head = git(dir, "rev-parse", "HEAD");
    const again = await membank("reflect", "--workspace", dir, "--json");
    const report = JSON.parse(again.stdout) as { pagesWritten: string[]; diagnostics: { path: string }[] };
    expect(report.pagesWritten).toEqual([]);
    expect(report.diagnostics.map((d) => d.path)).toEqual(["bank/entities/Jonas.md", "bank/entities/Mara.md"]);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);

    // memory_entity: "Mara" is Mara's page, though Jonas.md lists Mara as an alias.
    const ws = await openWorkspace(dir);
    const mcpMara = await entityReport(ws, "Mara");
    expect(mcpMara.entity).toBe("Mara");
    expect(JSON.stringify(mcpMara.facts)).toContain("cheese stall");
    expect(JSON.stringify(mcpMara.facts)).not.toContain("bakery");
    expect((await entityReport(ws, "jonas")).entity).toBe("Jonas");
  });
});
