import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseRetain, retainHeading, scanRetain } from "./parse.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/retain");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const P = "memory/2025-11-27.md";
const lines = (...l: string[]) => l.join("\n");

/** Every non-blank line of every Retain section is exactly one fact or one diagnostic (or deliberately ignored). */
function expectAccounted(p: string, text: string) {
  const scan = scanRetain(p, text);
  const all = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const seen = new Map<number, number>();
  for (const o of scan.outcomes) for (let l = o.line; l <= o.endLine; l++) seen.set(l, (seen.get(l) ?? 0) + 1);
  for (const l of scan.ignoredLines) seen.set(l, (seen.get(l) ?? 0) + 1);
  for (const s of scan.sections) {
    for (let l = s.line + 1; l <= s.endLine; l++) {
      if (/^\s*$/.test(all[l - 1]!)) continue;
      expect(seen.get(l), `line ${l}: ${all[l - 1]}`).toBe(1);
    }
  }
  return scan;
}

describe("parseRetain", () => {
  it("parses the DESIGN.md example exactly", () => {
    const text = lines(
      "# 2025-11-27",
      "Narrative mentioning @Nobody: not a fact.",
      "",
      "## Retain",
      "- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
      "- B @warelay: I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch (see memory/2025-11-27.md).",
      "- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
      "- S: Busy travel week; most work happened on warelay.",
    );
    const r = parseRetain(P, text);
    expect(r.diagnostics).toEqual([]);
    expect(r.facts.map(({ id, ...f }) => f)).toEqual([
      {
        kind: "world",
        entities: ["Peter"],
        content: "Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
        date: "2025-11-27",
        validFrom: "2025-11-27",
        validTo: "2025-12-01",
        source: { path: P, line: 5 },
      },
      {
        kind: "experience",
        entities: ["warelay"],
        content:
          "I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch (see memory/2025-11-27.md).",
        date: "2025-11-27",
        source: { path: P, line: 6 },
      },
      {
        kind: "opinion",
        entities: ["Peter"],
        confidence: 0.95,
        content: "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
        date: "2025-11-27",
        source: { path: P, line: 7 },
      },
      {
        kind: "observation",
        entities: [],
        content: "Busy travel week; most work happened on warelay.",
        date: "2025-11-27",
        source: { path: P, line: 8 },
      },
    ]);
    // JSON key order is part of the contract (deterministic bytes).
    expect(Object.keys(r.facts[2]!)).toEqual(["id", "kind", "entities", "confidence", "content", "date", "source"]);
  });

  it("uses the default confidence for O without c, from options or 0.7", () => {
    const text = lines("## Retain", "- O @Peter: Likes tea");
    expect(parseRetain(P, text).facts[0]!.confidence).toBe(0.7);
    expect(parseRetain(P, text, { defaultConfidence: 0.4 }).facts[0]!.confidence).toBe(0.4);
  });

  it("merges entities before the colon with inline mentions, keeping markup in the content", () => {
    const f = parseRetain(P, lines("## Retain", "- O @Peter @Andy: Prefers concise replies, says @Zoë's note. @Andy"))
      .facts[0]!;
    expect(f.entities).toEqual(["Peter", "Andy", "Zoë"]);
    expect(f.content).toBe("Prefers concise replies, says @Zoë's note. @Andy");
  });

  it("accepts *, + and - bullets, nested items as their own facts, headings at any level", () => {
    const text = lines(
      "### Retain", // 1
      "* W: star", // 2
      "+ W: plus", // 3
      "- W: dash", // 4
      "  - B: nested", // 5
      "    * S: deeper", // 6
      "1. W: ordered", // 7
    );
    const r = expectAccounted(P, text);
    expect(r.diagnostics).toEqual([]);
    expect(r.facts.map((f) => [f.source.line, f.content])).toEqual([
      [2, "star"],
      [3, "plus"],
      [4, "dash"],
      [5, "nested"],
      [6, "deeper"],
      [7, "ordered"],
    ]);
  });

  it("reads several Retain sections, marks 'Retain (extracted)' facts, and stops at the next heading", () => {
    const text = lines(
      "# Day", // 1
      "## Retain", // 2
      "- W: one", // 3
      "### Detail", // 4 sub-heading: stays in the section, ignored
      "- W: two", // 5
      "## Notes", // 6
      "- W: not retain", // 7
      "## retain (Extracted)", // 8
      "- S: three", // 9
      "# RETAIN", // 10
      "- B: four", // 11
      "", // 12
      "Title", // 13
      "=====", // 14 setext h1 ends the section
      "- W: after setext",
    );
    const r = expectAccounted(P, text);
    expect(r.facts.map((f) => [f.source.line, f.content, f.extracted ?? false])).toEqual([
      [3, "one", false],
      [5, "two", false],
      [9, "three", true],
      [11, "four", false],
    ]);
    expect(r.diagnostics).toEqual([]);
    expect(r.ignoredLines).toEqual([4]);
    expect(retainHeading("Retain (extracted)")).toEqual({ extracted: true });
    expect(retainHeading("Retained")).toBeUndefined();
    for (const typed of ["Retain:", "**Retain**", "_Retain_", "retain :", "RETAIN", "Retain (extracted):"])
      expect(retainHeading(typed), typed).toBeDefined();
    for (const other of ["Retain this", "To retain", "Retained:", "**Retain", "Retain::"])
      expect(retainHeading(other), other).toBeUndefined();
  });

  it("joins a wrapped item into one fact and reports every other line", () => {
    const text = lines(
      "## Retain", // 1
      "- W @Peter: wraps onto", // 2
      "  the next line.", // 3
      "", // 4
      "  A second paragraph in the item.", // 5
      "-", // 6
      "- ```", // 7
      "  code", // 8
      "  ```", // 9
      "", // 10
      "Stray paragraph.", // 11
      "<!-- a comment is not content -->", // 12
      "", // 13
      "---", // 14
      "> quoted", // 15
    );
    const r = expectAccounted(P, text);
    expect(r.facts.map((f) => [f.source.line, f.content])).toEqual([[2, "wraps onto the next line."]]);
    expect(r.diagnostics.map((d) => [d.line, d.reason.split(":")[0]])).toEqual([
      [5, "extra content in a list item"],
      [6, "empty list item"],
      [7, "list item does not start with a fact"],
      [8, "list item does not start with a fact"],
      [9, "list item does not start with a fact"],
      [11, "not a list item"],
      [15, "not a list item"],
    ]);
    expect(r.ignoredLines).toEqual([12, 14]);
  });

  it("gives ids from date and content: moving a line keeps them, confidence edits keep them", () => {
    const a = parseRetain(P, lines("## Retain", "- W @Peter: one", "- O(c=0.2): two"));
    const b = parseRetain(P, lines("Intro", "", "## Retain", "- O(c=0.9):   TWO ", "", "- W @Peter: one"));
    expect(b.facts.map((f) => f.id).sort()).toEqual(a.facts.map((f) => f.id).sort());
    const other = parseRetain("memory/2025-11-28.md", lines("## Retain", "- W @Peter: one"));
    expect(other.facts[0]!.id).not.toBe(a.facts[0]!.id);
  });

  it("reports a repeated fact as a duplicate so ids stay unique", () => {
    const r = parseRetain(P, lines("## Retain", "- W: same", "- W:  Same"));
    expect(r.facts).toHaveLength(1);
    expect(r.diagnostics).toEqual([
      { path: P, line: 3, reason: "duplicate of the fact at line 2 (same date, type, entities and text)" },
    ]);
  });

  it("reads nothing from a file without a date, and says so", () => {
    const r = parseRetain("MEMORY.md", lines("# Core", "## Retain", "- W: x"));
    expect(r.facts).toEqual([]);
    expect(r.diagnostics).toEqual([{ path: "MEMORY.md", line: 2, reason: expect.stringMatching(/without a date/) }]);
    expect(parseRetain(P, "# No retain section\n- W: x\n")).toEqual({ facts: [], diagnostics: [] });
  });

  it("does not take a Retain heading inside fenced code, nor a fence's lines as facts", () => {
    const text = lines(
      "```md", // 1
      "## Retain", // 2
      "- W: example in a code block", // 3
      "```", // 4
      "## Retain", // 5
      "~~~", // 6
      "- W: fenced inside the section", // 7
      "~~~", // 8
      "- W: real", // 9
    );
    const r = expectAccounted(P, text);
    expect(r.sections.map((s) => s.line)).toEqual([5]);
    expect(r.facts.map((f) => [f.source.line, f.content])).toEqual([[9, "real"]]);
    expect(r.diagnostics.map((d) => d.line)).toEqual([6, 7, 8]);
  });

  it("takes the date from YYYY-MM-DD-<slug>.md names", () => {
    const r = parseRetain("memory/2025-11-27-sessions.md", lines("## Retain", "- S: digest"));
    expect(r.facts[0]).toMatchObject({
      date: "2025-11-27",
      source: { path: "memory/2025-11-27-sessions.md", line: 2 },
    });
  });
});

describe("odd inputs (fixtures/retain)", () => {
  it("CRLF with a BOM: same lines, no \\r in content", () => {
    const text = fixture("2025-11-27-crlf-bom.md");
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text).toContain("\r\n");
    const r = expectAccounted("memory/2025-11-27-crlf-bom.md", text);
    expect(r.facts.map((f) => [f.source.line, f.kind, f.entities, f.content])).toEqual([
      [6, "world", ["Peter", "Andy"], "Currently in Marrakech (Nov 27–Dec 1, 2025) for @Andy's birthday."],
      [7, "experience", ["warelay"], "I fixed the Baileys WS crash."],
      [8, "opinion", ["Peter"], "Prefers concise replies."],
    ]);
    expect(r.facts[0]).toMatchObject({ validFrom: "2025-11-27", validTo: "2025-12-01" });
    expect(r.diagnostics.map((d) => d.line)).toEqual([9]);
    // The same text with LF endings gives the same facts.
    const lf = parseRetain("memory/2025-11-27-crlf-bom.md", text.replace(/\r\n/g, "\n"));
    expect(lf.facts).toEqual(r.facts);
  });

  it("CJK and Unicode entities", () => {
    const r = expectAccounted("memory/2025-12-03-cjk.md", fixture("2025-12-03-cjk.md"));
    expect(r.facts.map((f) => [f.entities, f.content])).toEqual([
      [["张伟"], "数据库迁移已经完成，新的只读副本运行正常。"],
      [["Zoë", "The-Castle"], "Prefers lime plaster over gypsum at @The-Castle."],
      [["ledger-sync"], "忙碌的一天。Contact zoe@example.com about @ledger-sync."],
    ]);
    expect(r.diagnostics).toEqual([
      { path: "memory/2025-12-03-cjk.md", line: 9, reason: expect.stringMatching(/missing type letter/) },
    ]);
  });

  it("every diagnostic kind, nesting, wrapped lines and an extracted section", () => {
    const r = expectAccounted("memory/2025-12-04-odd.md", fixture("2025-12-04-odd.md"));
    // "- w: lowercase letter" (line 19) is read as W, as typed in a hurry.
    expect(r.facts.map((f) => f.source.line)).toEqual([5, 7, 8, 9, 10, 19, 27]);
    expect(r.facts[0]).toMatchObject({ validFrom: "2025-11-27", content: expect.stringContaining("continues") });
    expect(r.facts[4]).toMatchObject({ kind: "opinion", confidence: 0.7 });
    expect(r.facts[5]).toMatchObject({ kind: "world", content: "lowercase letter" });
    expect(r.facts[6]).toMatchObject({ extracted: true, validFrom: "2025-12-09", validTo: "2025-12-09" });
    expect(r.diagnostics.map((d) => d.line)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 21]);
  });

  it("a 5 MB log: one pass, every item accounted for, fast and remark paths agree", () => {
    const parts = ["# Big day", "", "Narrative line with @Someone and words, repeated.".repeat(20), "", "## Retain"];
    let size = parts.join("\n").length;
    let i = 0;
    while (size < 5 * 1024 * 1024) {
      const line =
        i % 97 === 0
          ? `- X: bad line ${i}`
          : i % 13 === 0
            ? `- O(c=0.${i % 10}) @Peter @Zoë: opinion ${i} since Nov ${1 + (i % 27)}`
            : `- W @ledger-sync: fact number ${i} about 数据 and @Andy`;
      parts.push(line);
      size += line.length + 1;
      i++;
    }
    const text = parts.join("\n");
    const r = parseRetain(P, text);
    expect(r.facts.length + r.diagnostics.length).toBe(i);
    expect(r.diagnostics.every((d) => d.reason.startsWith('unknown type letter "X"'))).toBe(true);
    expect(r.facts[1]).toMatchObject({ kind: "world", entities: ["ledger-sync", "Andy"], source: { line: 8 } });
    // The remark path on a slice agrees with the fast path.
    const slice = parts.slice(0, 2000).join("\n");
    expect(parseRetain(P, slice)).toEqual(parseRetain(P, slice, { fastPath: false }));
  });
});

describe("git conflict markers left in a Retain section", () => {
  it("a diff3-style conflict: every side's fact read whole, each marker line said, fast and remark paths agree", () => {
    const text = lines(
      "## Retain",
      "- W @Ines: teaches the Tuesday pottery class",
      "<<<<<<< HEAD",
      "- O(c=0.6) @Ines: thinks the new kiln runs hot",
      "||||||| merged common ancestors",
      "=======",
      "* B: glazed six mugs, two cracked",
      ">>>>>>> 4f1c2ab (phone notes)",
      "- S: good week at the studio",
    );
    const scan = expectAccounted(P, text);
    expect(scan.facts.map((f) => f.content)).toEqual([
      "teaches the Tuesday pottery class",
      "thinks the new kiln runs hot",
      "glazed six mugs, two cracked",
      "good week at the studio",
    ]);
    expect(scan.diagnostics.map((d) => d.line)).toEqual([3, 5, 6, 8]);
    for (const d of scan.diagnostics) expect(d.reason).toMatch(/^git conflict marker/);
    expect(parseRetain(P, text)).toEqual(parseRetain(P, text, { fastPath: false }));
  });

  it("a line of equals signs with no conflict around it is not called one", () => {
    const scan = scanRetain(P, lines("## Retain", "- W @Ines: teaches pottery", "=======", "- S: quiet"));
    expect(scan.diagnostics.some((d) => /conflict marker/.test(d.reason))).toBe(false);
  });
});
