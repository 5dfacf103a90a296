// The nightly's incremental window on a workspace whose logs were all written (copied, cloned,
// unpacked) just before its first run: the second run, one new day later, reads that day, not
// ten years again; an old log edited after a run is still read.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../pipelines/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";

const exec = promisify(execFile);
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-window-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const day = (d: string, fact: string) => `# ${d}\n\nQuiet day.\n\n## Retain\n- B @Ilse: ${fact}\n`;

async function freshWorkspace(): Promise<string> {
  const root = await mkdtemp(path.join(tmp, "ws-"));
  await mkdir(path.join(root, "memory"));
  const logs: [string, string][] = [
    ["2026-02-02", "Repotted the fig."],
    ["2026-02-03", "Finished the quilt border."],
    ["2026-02-04", "Fixed the bike's back brake."],
  ];
  for (const [d, fact] of logs) await writeFile(path.join(root, "memory", `${d}.md`), day(d, fact));
  await writeFile(path.join(root, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  await exec("git", ["init", "-q"], { cwd: root });
  await exec("git", ["add", "-A"], { cwd: root });
  await exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "logs"], { cwd: root });
  return root;
}

const factsRead = (rec: Awaited<ReturnType<typeof runPipeline>>) =>
  rec.steps.find((s) => s.name === "reflect")?.counts?.factsRead;

describe("the nightly's window after a first run on freshly written logs", () => {
  it("the second run reads only the new day", async () => {
    const root = await freshWorkspace();
    const first = await runPipeline(await openWorkspace(root), "nightly");
    expect(first.status).toBe("done");
    expect(factsRead(first)).toBe(3);
    await writeFile(path.join(root, "memory", "2026-02-05.md"), day("2026-02-05", "Planted garlic."));
    const second = await runPipeline(await openWorkspace(root), "nightly");
    expect(second.status).toBe("done");
    expect(factsRead(second)).toBe(1);
  });

  it("an old log edited after a run is read again, from its day on", async () => {
    const root = await freshWorkspace();
    expect((await runPipeline(await openWorkspace(root), "nightly")).status).toBe("done");
    await writeFile(
      path.join(root, "memory", "2026-02-03.md"),
      day("2026-02-03", "Finished the quilt border and binding."),
    );
    const second = await runPipeline(await openWorkspace(root), "nightly");
    expect(second.status).toBe("done");
    expect(factsRead(second)).toBe(2);
  });
});
