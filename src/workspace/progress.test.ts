import { describe, expect, it } from "vitest";
import { formatDuration, progressLine, progressLines } from "./progress.js";

/** Drive the reporter with a hand-moved clock. */
function harness() {
  const lines: string[] = [];
  let t = 1_000_000;
  const p = progressLines((l) => lines.push(l), { now: () => t });
  return { lines, p, tick: (ms: number) => (t += ms) };
}

describe("progress lines (non-TTY)", () => {
  it("stays silent for a pass that ends within a couple of seconds", () => {
    const { lines, p, tick } = harness();
    p.update("embedding", 0, 40);
    tick(900);
    p.update("embedding", 20, 40);
    tick(900);
    p.update("embedding", 40, 40);
    p.finish();
    expect(lines).toEqual([]);
  });

  it("a long pass gets counts, elapsed time and an estimate, at most every 5 s, then a closing line", () => {
    const { lines, p, tick } = harness();
    p.update("embedding with local", 0, 1000);
    tick(2500);
    p.update("embedding with local", 100, 1000);
    tick(1000);
    p.update("embedding with local", 140, 1000); // within 5 s of the last line: quiet
    tick(4500);
    p.update("embedding with local", 320, 1000);
    tick(20_000);
    p.update("embedding with local", 1000, 1000);
    p.update("embedding with local", 1000, 1000); // repeated end: no second closing line
    expect(lines).toEqual([
      "embedding with local: 100/1000 (10%), 3 s elapsed, ~23 s left",
      "embedding with local: 320/1000 (32%), 8 s elapsed, ~17 s left",
      "embedding with local: 1000/1000 done in 28 s",
    ]);
  });

  it("a new label closes the previous pass; finish() closes a pass cut short", () => {
    const { lines, p, tick } = harness();
    p.update("indexing files", 0, 5000);
    tick(3000);
    p.update("indexing files", 2500, 5000);
    p.update("embedding", 0, 10);
    tick(3000);
    p.update("embedding", 0, 10);
    p.finish();
    expect(lines).toEqual([
      "indexing files: 2500/5000 (50%), 3 s elapsed, ~3 s left",
      "indexing files: stopped at 2500/5000 after 3 s",
      "embedding: 0/10 (0%), 3 s elapsed, estimating the time left",
      "embedding: stopped at 0/10 after 3 s",
    ]);
  });

  it("formats durations a person reads at a glance", () => {
    expect(formatDuration(400)).toBe("0 s");
    expect(formatDuration(59_400)).toBe("59 s");
    expect(formatDuration(185_000)).toBe("3m 05s");
    expect(formatDuration(3_720_000)).toBe("1h 02m");
    expect(progressLine("x", 5, 5, 1200)).toBe("x: 5/5 done in 1 s");
  });
});
