// openMembank: one handle per caller over the process-wide index handles; closing one
// instance leaves another working, and a closed instance says so instead of reopening.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MembankError, openMembank } from "../src/index.js";

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-api-"));
  await mkdir(path.join(dir, "memory"));
  await writeFile(
    path.join(dir, "memory", "2026-03-02.md"),
    "standup ran long again\n\n## Retain\n- W @Priya: decided to ship ledger-sync in March, batch size 500\n",
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("two instances share the index; closing one leaves the other answering", async () => {
  const a = await openMembank(dir, { provider: "none" });
  const b = await openMembank({ workspace: dir }, { provider: "none" });
  expect(b.workspace.root).toBe(a.workspace.root);
  const synced = await a.index();
  expect(synced.facts).toBe(1);
  await a.close();
  const res = await b.recall("what did Priya decide?");
  expect(res.results.map((r) => r.source)).toContain("memory/2026-03-02.md#L4-L4");
  const got = await b.get("memory/2026-03-02.md", { from: 1, lines: 1 });
  expect(got.text).toBe("standup ran long again");
  await b.close();
  await b.close(); // closing twice is harmless
  await expect(b.search("ledger")).rejects.toBeInstanceOf(MembankError);
});
