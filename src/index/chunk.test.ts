import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHARS_PER_TOKEN, chunkMarkdown } from "./chunk.js";

describe("chunkMarkdown", () => {
  it("keeps a small file in one chunk with its line range, trimming blank edges", () => {
    expect(chunkMarkdown("\n# Title\n\nbody\n\n")).toEqual([{ startLine: 2, endLine: 4, text: "# Title\n\nbody" }]);
    expect(chunkMarkdown("")).toEqual([]);
    expect(chunkMarkdown("\n\n  \n")).toEqual([]);
  });

  it("cuts at a heading in the second half of a full chunk, without overlap there", () => {
    const para = (n: number) => Array.from({ length: n }, (_, i) => `word${i} `.repeat(3).trim());
    const lines = ["# A", ...para(6), "## B", ...para(6)];
    // Budget: 20 tokens = 80 chars; each para line is ~20 chars.
    const chunks = chunkMarkdown(lines.join("\n"), { tokens: 40, overlap: 5 });
    const b = lines.indexOf("## B") + 1;
    expect(chunks.some((c) => c.endLine === b - 1)).toBe(true);
    expect(chunks.some((c) => c.startLine === b)).toBe(true);
  });

  it("overlaps about `overlap` tokens when no heading is near", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(2, "0")} xxxxxxxxxx`); // 19 chars + \n
    const chunks = chunkMarkdown(lines.join("\n"), { tokens: 50, overlap: 10 }); // 200 chars, 40 chars overlap
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 10 });
    expect(chunks[1]).toMatchObject({ startLine: 9, endLine: 18 });
  });

  it("gives an over-long line a chunk of its own", () => {
    const chunks = chunkMarkdown(`short\n${"y".repeat(500)}\nshort again`, { tokens: 20, overlap: 0 });
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it("covers every non-blank line, in order, within budget, with exact text (property)", () => {
    const line = fc.oneof(
      fc.constant(""),
      fc.constant("# Heading"),
      fc.constant("## Sub"),
      fc.string({ maxLength: 120 }).map((s) => s.replace(/[\r\n]/g, " ")),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 80 }),
        fc.integer({ min: 16, max: 200 }),
        fc.integer({ min: 0, max: 100 }),
        (lines, tokens, overlap) => {
          const text = lines.join("\n");
          const chunks = chunkMarkdown(text, { tokens, overlap });
          const src = text.split("\n");
          const covered = new Set<number>();
          let prevStart = 0;
          for (const c of chunks) {
            expect(c.startLine).toBeGreaterThan(prevStart);
            prevStart = c.startLine;
            expect(c.text).toBe(src.slice(c.startLine - 1, c.endLine).join("\n"));
            if (c.endLine > c.startLine) expect(c.text.length).toBeLessThanOrEqual(tokens * CHARS_PER_TOKEN);
            for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
          }
          src.forEach((l, i) => {
            if (l.trim() !== "") expect(covered.has(i + 1)).toBe(true);
          });
          expect(chunkMarkdown(text, { tokens, overlap })).toEqual(chunks);
        },
      ),
      { numRuns: 300 },
    );
  });
});
