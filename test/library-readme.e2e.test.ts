// README's "Library" example, run as written against the BUILT package (dist/src/index.js)
// on a temp workspace: what a person copies from the README must work.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "..");
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-readme-lib-"));
  await mkdir(path.join(dir, "memory"), { recursive: true });
  await writeFile(
    path.join(dir, "memory", "2025-11-27.md"),
    [
      "# Thu Nov 27",
      "",
      "Landed in Marrakech late, riad is lovely. Peter already asleep.",
      "",
      "## Retain",
      "- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
      "- O(c=0.9) @Peter: prefers concise replies on WhatsApp, long stuff goes in files",
      "-  S: travel day, nothing shipped",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The first ```ts block of the README's "## Library" section. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Library\n"));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (!m?.[1]) throw new Error("README has no ts example under ## Library");
  return m[1];
}

it("README's Library example runs against a workspace and prints cited answers", async () => {
  const code = (await readmeExample())
    .replace('from "membank"', `from ${JSON.stringify(pathToFileURL(path.join(repoRoot, "dist/src/index.js")).href)}`)
    .replace('"/path/to/workspace"', JSON.stringify(dir));
  const script = path.join(dir, "example.mjs");
  await writeFile(script, code);
  const { stdout } = await run(process.execPath, [script], {
    cwd: dir,
    env: { ...process.env, OPENAI_API_KEY: "", GEMINI_API_KEY: "", ANTHROPIC_API_KEY: "" },
  });
  expect(stdout).toMatch(/^3 new facts, \d+ pages$/m);
  expect(stdout).toMatch(/Prefers concise replies|prefers concise replies/);
  expect(stdout).toContain("memory/2025-11-27.md#L");
  // search + get: the Marrakech line read back from the log.
  expect(stdout).toContain("Landed in Marrakech late");
  // reflect wrote real bank pages.
  expect(await readFile(path.join(dir, "bank", "opinions.md"), "utf8")).toContain("concise replies");
}, 60_000);
