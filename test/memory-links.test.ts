import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, membank, repoRoot } from "./reflect-support.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const OUTSIDE_LOG = (day: string) =>
  `# ${day}\n\nSomeone else's diary.\n\n## Retain\n- W @Eve: Keeps the vault code under the doormat.\n- O(c=0.9) @Eve: Trusts nobody at work\n`;
const ANA_LOG = "# 2026-03-01\n\nQuiet Sunday.\n\n## Retain\n- W @Ana: Plays the cello on Sundays.\n";

type Layout = "memory" | "subfolder" | "file" | "inside";

/** A git workspace whose logs include one about @Eve reached through a symlink (`layout`). */
async function setup(layout: Layout, day = "2026-03-02"): Promise<{ dir: string; outside: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-links-"));
  const outside = await mkdtemp(path.join(tmpdir(), "membank-elsewhere-"));
  dirs.push(dir, outside);
  await writeFile(path.join(dir, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  await writeFile(path.join(dir, "MEMORY.md"), "# Core\n\n- I live in Vienna.\n");
  if (layout === "memory") {
    await writeFile(path.join(outside, `${day}.md`), OUTSIDE_LOG(day));
    await symlink(outside, path.join(dir, "memory"));
  } else {
    await mkdir(path.join(dir, "memory"));
    await writeFile(path.join(dir, "memory/2026-03-01.md"), ANA_LOG);
    if (layout === "subfolder") {
      await mkdir(path.join(outside, "2026"));
      await writeFile(path.join(outside, "2026", `${day}.md`), OUTSIDE_LOG(day));
      await symlink(path.join(outside, "2026"), path.join(dir, "memory/2026"));
    } else if (layout === "file") {
      await writeFile(path.join(outside, `${day}.md`), OUTSIDE_LOG(day));
      await symlink(path.join(outside, `${day}.md`), path.join(dir, `memory/${day}.md`));
    } else {
      await mkdir(path.join(dir, "notes"));
      await writeFile(path.join(dir, "notes", `${day}.md`), OUTSIDE_LOG(day));
      await symlink(path.join("..", "notes", `${day}.md`), path.join(dir, `memory/${day}.md`));
    }
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "user: workspace");
  return { dir, outside };
}

/** Every bank page's text, joined. */
async function bankText(dir: string): Promise<string> {
  if (!existsSync(path.join(dir, "bank"))) return "";
  const out: string[] = [];
  for (const name of (await readdir(path.join(dir, "bank"), { recursive: true })).sort()) {
    if (name.endsWith(".md")) out.push(await readFile(path.join(dir, "bank", name), "utf8"));
  }
  return out.join("\n");
}

describe("logs linked from outside the workspace", () => {
  it.each(["memory", "subfolder", "file"] as const)(
    "memory linked outside (%s): facts, full and incremental reflect never read them",
    async (layout) => {
      const { dir } = await setup(layout);
      const facts = await membank("facts", "--workspace", dir, "--json");
      expect(facts.code).toBe(0);
      expect(facts.stdout).not.toContain("vault");
      expect((await membank("reflect", "--workspace", dir)).code).toBe(0);
      // An incremental run walks the recent logs itself: it must apply the same rule.
      expect((await membank("reflect", "--workspace", dir, "--since", "2026-03-01")).code).toBe(0);
      expect(await bankText(dir)).not.toMatch(/vault|Eve/);
      expect(existsSync(path.join(dir, "bank/entities/Eve.md"))).toBe(false);
      expect(git(dir, "log", "-p", "--all")).not.toContain("vault");
      if (layout !== "memory") expect(await bankText(dir)).toContain("Plays the cello on Sundays.");
    },
  );

  it("the nightly run does not read a linked-out memory/ either", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { dir } = await setup("memory", today);
    const empty = await mkdtemp(path.join(tmpdir(), "membank-nosessions-"));
    dirs.push(empty);
    for (let i = 0; i < 2; i++) {
      const res = await membank("run", "nightly", "--workspace", dir, "--sessions", empty, "--json");
      expect(res.stderr).not.toMatch(/failed|error/i);
      expect(JSON.parse(res.stdout).status).toMatch(/^(done|nothing)$/);
    }
    expect(await bankText(dir)).not.toMatch(/vault|Eve/);
    expect(git(dir, "log", "-p", "--all")).not.toContain("vault");
    const search = await membank("search", "vault", "--workspace", dir, "--json");
    expect(search.stdout).not.toContain("vault");
  });

  it("session digests are not written through a memory/ linked outside", async () => {
    const { dir, outside } = await setup("memory");
    await writeFile(
      path.join(dir, "membank.config.json"),
      JSON.stringify({ embedding: { provider: "none" }, sessions: { tz: "UTC" } }),
    );
    const sessions = path.join(repoRoot, "fixtures/sessions/agents");
    const res = await membank("run", "nightly", "--workspace", dir, "--sessions", sessions, "--json");
    expect(JSON.parse(res.stdout).status).toMatch(/^(done|nothing)$/);
    expect(`${res.stdout}${res.stderr}`).toMatch(/memory\/2026-03-0\d-sessions\.md.*leads outside the workspace/);
    expect((await readdir(outside)).filter((n) => n.endsWith("-sessions.md"))).toEqual([]);
  });

  it("a link that stays inside the workspace is followed", async () => {
    const { dir } = await setup("inside");
    const facts = await membank("facts", "--workspace", dir, "--json");
    expect(facts.stdout).toContain("Keeps the vault code under the doormat.");
    expect((await membank("reflect", "--workspace", dir)).code).toBe(0);
    expect((await membank("reflect", "--workspace", dir, "--since", "2026-03-01")).code).toBe(0);
    expect(await readFile(path.join(dir, "bank/entities/Eve.md"), "utf8")).toContain(
      "Keeps the vault code under the doormat.",
    );
  });

  it("a bank page linked outside is not read, and reflect refuses to write through it", async () => {
    const { dir, outside } = await setup("file");
    await mkdir(path.join(dir, "bank"));
    const theirs = "# World (another project's page)\n\nNot yours.\n";
    await writeFile(path.join(outside, "world.md"), theirs);
    await symlink(path.join(outside, "world.md"), path.join(dir, "bank/world.md"));
    const res = await membank("reflect", "--workspace", dir);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/bank\/world\.md leads outside the workspace \(to .*world\.md\)/);
    expect(await readFile(path.join(outside, "world.md"), "utf8")).toBe(theirs);
    expect(git(dir, "log", "--format=%s")).not.toContain("reflect:");
  });

  it("an entity folder linked outside is neither read nor written", async () => {
    const { dir, outside } = await setup("file");
    await mkdir(path.join(dir, "bank"));
    await mkdir(path.join(outside, "entities"));
    const foreign = "---\naliases: [Ana]\n---\n# Someone else's page\n";
    await writeFile(path.join(outside, "entities", "Zed.md"), foreign);
    await symlink(path.join(outside, "entities"), path.join(dir, "bank/entities"));
    const res = await membank("reflect", "--workspace", dir);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/bank\/entities\/Ana\.md leads outside the workspace .* through a symbolic link/);
    expect(res.stderr).not.toMatch(/\n\s+at /); // a message, not a stack
    // Nothing written there, and the outside page's alias was not applied.
    expect(await readdir(path.join(outside, "entities"))).toEqual(["Zed.md"]);
    expect(await readFile(path.join(outside, "entities", "Zed.md"), "utf8")).toBe(foreign);
    expect(git(dir, "log", "--format=%s")).not.toContain("reflect:");
  });
});
