/**
 * A daily log the agent appends to while the nightly reads it. Before, a read could take the
 * file half-way through an append, and the half line (a fact cut mid-sentence) reached a bank
 * page for a night. Now a read is taken again when the file changed under it, and a last line
 * without its line break in a file written a moment ago is given a moment to be finished.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readLog } from "../src/retain/read.js";
import { fileWaits, readMemoryText } from "../src/workspace/text-file.js";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "membank-append-"));
});
const clock = fileWaits.now;
afterEach(() => {
  fileWaits.now = clock;
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const HEAD = "# 2026-05-02\n\nBusy day at the workshop.\n\n## Retain\n";
const whole = /^- W @Pat: order \d+ of oak boards arrived, all \d+ of them straight$/;

describe("a log appended to while it is read", () => {
  it("a real writer appending each fact in two writes: no read ever holds half a fact", async () => {
    const log = path.join(tmp, "2026-05-02.md");
    writeFileSync(log, HEAD);
    // The agent: each fact written in two pieces (as a buffered writer flushing mid-line does).
    // (Back to back: a writer stalled longer than SETTLE_MS mid-line is beyond what a read can tell.)
    const writer = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const fd = fs.openSync(${JSON.stringify(log)}, "a");
         const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
         for (let i = 1; i <= 400; i++) {
           fs.writeSync(fd, "- W @Pat: order " + i + " of oak boa");
           fs.writeSync(fd, "rds arrived, all " + (i * 7) + " of them straight\\n");
           sleep(i % 3);
         }`,
      ],
      { stdio: "ignore" },
    );
    const done = new Promise((resolve) => writer.on("close", resolve));
    let reads = 0;
    let finished = false;
    void done.then(() => {
      finished = true;
    });
    const bad: string[] = [];
    while (!finished) {
      const { text } = await readMemoryText(log);
      reads++;
      expect(text.startsWith(HEAD)).toBe(true);
      for (const line of text.slice(HEAD.length).split("\n").slice(0, -1)) if (!whole.test(line)) bad.push(line);
      if (!text.endsWith("\n")) bad.push(`(no line break at the end) ${text.slice(text.lastIndexOf("\n") + 1)}`);
    }
    expect(bad).toEqual([]);
    expect(reads).toBeGreaterThan(5);
    // Once the writer is done, all 400 facts are read.
    expect((await readMemoryText(log)).text.split("\n").filter((l) => whole.test(l))).toHaveLength(400);
  }, 60_000);

  it("a fact whose line break comes a moment later is read whole", async () => {
    const log = path.join(tmp, "2026-05-03.md");
    writeFileSync(log, `${HEAD}- W @Pat: the planer blades need`);
    // Ages are judged from the write, however late a loaded machine gets to the read.
    const written = Math.floor(statSync(log).mtimeMs);
    fileWaits.now = () => written;
    setTimeout(() => appendFileSync(log, " sharpening before Friday\n"), 100);
    const read = await readLog("memory/2026-05-03.md", log);
    expect(read.text).toBe(`${HEAD}- W @Pat: the planer blades need sharpening before Friday\n`);
  });

  it("a log last written long ago whose last line has no line break is read at once, last line and all", async () => {
    const log = path.join(tmp, "2026-05-04.md");
    writeFileSync(log, `${HEAD}- W @Pat: keeps the spare keys in the blue tin`);
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(log, hourAgo, hourAgo);
    const t = performance.now();
    const { text } = await readMemoryText(log);
    expect(performance.now() - t).toBeLessThan(150);
    expect(text).toBe(`${HEAD}- W @Pat: keeps the spare keys in the blue tin`);
  });
});

describe("a log saved by an editor that renames (vim: the old file moved away, the new one written)", () => {
  it("read in the moment it is away: waited for, read whole, never taken as unreadable", async () => {
    const log = path.join(tmp, "2026-05-05.md");
    const text = `${HEAD}- W @Pat: lent the mitre saw to the neighbours\n`;
    writeFileSync(log, text);
    renameSync(log, `${log}~`);
    setTimeout(() => writeFileSync(log, text), 150);
    const read = await readLog("memory/2026-05-05.md", log);
    expect(read.problems).toEqual([]);
    expect(read.unread).toBeUndefined();
    expect(read.text).toBe(text);
  });

  it("a log gone for good is still said as unreadable, after a short wait", async () => {
    const t = performance.now();
    const read = await readLog("memory/2026-05-06.md", path.join(tmp, "2026-05-06.md"));
    expect(read.unread).toBe(true);
    expect(read.problems?.[0]?.reason).toMatch(/^cannot read the file \(ENOENT\)/);
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
