/**
 * The search index reading a log the agent is writing a line of: before, it read without the
 * moment the nightly's reader gives a last line still being written, so a fact cut mid-sentence
 * sat in the index (and in `recall`) until the log's next change. The writer finishes its line
 * in the reader's wait hook, not in a race.
 */
import { appendFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes, factsByEntity, openIndex, syncIndex } from "../src/index/index.js";
import { fileWaits } from "../src/workspace/text-file.js";
import { makeWorkspace } from "./index-support.js";

const timer = fileWaits.wait;
const clock = fileWaits.now;
afterEach(() => {
  fileWaits.wait = timer;
  fileWaits.now = clock;
  closeIndexes();
});

describe("a log whose last line is still being written when the index syncs", () => {
  it("is given the moment retain gives it: the index holds the finished fact, not half of it", async () => {
    const w = await makeWorkspace({}, (c) => {
      c.embedding.provider = "none";
    });
    try {
      const log = path.join(w.root, "memory/2026-05-04.md");
      writeFileSync(log, "## Retain\n- W @Pat: the oak boards for the ");
      // "Now" is the moment of the write, however long a loaded machine takes to get to the read.
      const written = statSync(log).mtimeMs;
      fileWaits.now = () => Math.floor(written);
      let waits = 0;
      fileWaits.wait = async () => {
        if (waits++ === 0) appendFileSync(log, "workbench arrived straight\n");
      };
      await syncIndex(w);
      const idx = openIndex(w);
      try {
        expect(factsByEntity(idx, ["Pat"]).map((f) => f.content)).toEqual([
          "the oak boards for the workbench arrived straight",
        ]);
      } finally {
        idx.close();
      }
    } finally {
      rmSync(w.root, { recursive: true, force: true });
    }
  });
});
