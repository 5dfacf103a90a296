// A log an editor saves by rename (vim and many others move the file away, then write it anew)
// in the very moment the nightly lists memory/: before, the listing took it for deleted and
// its facts left the bank for a night. The moment is made with the listing's wait hook, not a race.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { fileWaits } from "../src/workspace/text-file.js";
import { openWorkspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-saved-while-listed-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});
const timer = fileWaits.wait;
afterEach(() => {
  fileWaits.wait = timer;
});

describe("a log saved by rename while the nightly lists memory/", () => {
  it("is looked for again and read: its facts stay on the bank page and in the commit", async () => {
    const root = await mkdtemp(path.join(tmp, "ws-"));
    await mkdir(path.join(root, "memory"));
    await writeFile(
      path.join(root, "memory/2026-03-09.md"),
      "Long call with Aunt Bea.\n\n## Retain\n- W @Bea: moving to Lisbon in the spring\n",
    );
    await writeFile(path.join(root, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
    await exec("git", ["init", "-q"], { cwd: root });
    await exec("git", ["add", "-A"], { cwd: root });
    await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "logs"], { cwd: root });
    expect((await runPipeline(await openWorkspace(root), "nightly")).status).toBe("done");
    const page = path.join(root, "bank/entities/Bea.md");
    expect(await readFile(page, "utf8")).toContain("moving to Lisbon");

    await writeFile(path.join(root, "memory/2026-03-10.md"), "## Retain\n- W @Bea: found a flat near the river\n");
    // vim's save: the log moved to its backup name; the new file is written a moment later.
    const log = path.join(root, "memory/2026-03-09.md");
    await rename(log, `${log}~`);
    let waited = 0;
    fileWaits.wait = async () => {
      if (waited++ === 0) await rename(`${log}~`, log);
    };
    const run = await runPipeline(await openWorkspace(root), "nightly");
    expect(run.status).toBe("done");
    const text = await readFile(page, "utf8");
    expect(text).toContain("moving to Lisbon");
    expect(text).toContain("found a flat near the river");
    const { stdout } = await exec("git", ["show", "HEAD:bank/entities/Bea.md"], { cwd: root });
    expect(stdout).toContain("moving to Lisbon");
    expect(waited).toBeGreaterThan(0);
  }, 60_000);
});
