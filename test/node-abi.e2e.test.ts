// A membank installed with one Node and started by another (OpenClaw 2026.9 runs Node 24;
// membank was often installed with Node 20): the real better-sqlite3 binary of this
// install loaded by a real Node of another major. Every SQLite command, doctor first,
// says in one line what to run; no stack trace; a non-zero exit.
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBANK_BIN } from "./cli-bin.js";
import { otherNode } from "./support/other-node.js";

const repoRoot = path.resolve(import.meta.dirname, "..");
const cli = MEMBANK_BIN;
// At collection, so a machine without a second Node shows these tests as skipped, with the reason.
const other = otherNode();
if (!other.node) console.warn(`node-abi e2e skipped: ${other.reason}`);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-abi-"));
  await cp(path.join(repoRoot, "bank.example"), dir, { recursive: true });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!other.node)("better-sqlite3 built for another Node", () => {
  it.each([["doctor"], ["index"], ["search", "FJD-482"], ["recall", "what does Mara prefer?"], ["mcp"]])(
    "membank %s says what to run, in one line",
    (...args) => {
      const res = spawnSync(other.node!, [cli, ...args, "--workspace", dir], { encoding: "utf8", input: "" });
      expect(res.status).toBe(1);
      expect(res.stdout).toBe("");
      const lines = res.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^membank: better-sqlite3 was built for NODE_MODULE_VERSION \d+ \(Node \d+\), but membank runs on Node v\d+/,
      );
      expect(lines[0]).toContain(`PATH="${path.dirname(other.node!)}":"$PATH"`);
      expect(lines[0]).toMatch(/(pnpm|npm) rebuild better-sqlite3/);
    },
  );

  it("commands that need no SQLite still work", () => {
    const res = spawnSync(other.node!, [cli, "facts", "--workspace", dir, "--json"], { encoding: "utf8" });
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).facts.length).toBeGreaterThan(10);
  });
});
