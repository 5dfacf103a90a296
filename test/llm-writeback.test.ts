import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendExtractedRetain,
  entityToken,
  extractedComment,
  extractedSection,
  formatRetainLine,
  hasOwnRetain,
  narrativeText,
} from "../src/llm/index.js";
import type { ExtractedFact } from "../src/llm/types.js";
import { MembankError } from "../src/workspace/errors.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

const facts: ExtractedFact[] = [
  { kind: "opinion", entities: ["Priya"], confidence: 0.7, content: "Prefers async stand-ups over meetings." },
  { kind: "world", entities: ["Jonas", "ledger sync"], content: "Jonas owns the ledger-sync rollout." },
];

describe("formatRetainLine", () => {
  it("writes the Retain grammar of DESIGN.md 1.1", () => {
    expect(formatRetainLine(facts[0]!)).toBe("- O(c=0.70) @Priya: Prefers async stand-ups over meetings.");
    expect(formatRetainLine(facts[1]!)).toBe("- W @Jonas @ledger-sync: Jonas owns the ledger-sync rollout.");
    expect(formatRetainLine({ kind: "observation", entities: [], content: "Quiet\n  day." })).toBe("- S: Quiet day.");
    expect(formatRetainLine({ kind: "experience", entities: ["@warelay"], content: "I fixed the crash." })).toBe(
      "- B @warelay: I fixed the crash.",
    );
    // Confidence only on opinions; an opinion without one gets the configured default when parsed.
    expect(formatRetainLine({ kind: "world", entities: [], confidence: 0.9, content: "x" })).toBe("- W: x");
    expect(formatRetainLine({ kind: "opinion", entities: [], content: "x" })).toBe("- O: x");
    expect(formatRetainLine({ kind: "opinion", entities: [], confidence: 1.4, content: "x" })).toBe("- O(c=1.00): x");
  });

  it("adds a citation suffix for facts from sessions", () => {
    expect(
      formatRetainLine({
        kind: "world",
        entities: ["Priya"],
        content: "Moved to Lisbon.",
        citation: "session abc123#L42",
      }),
    ).toBe("- W @Priya: Moved to Lisbon. (session abc123#L42)");
  });

  it("turns entity names into @ tokens", () => {
    expect(entityToken("Priya Sharma")).toBe("Priya-Sharma");
    expect(entityToken("@The Castle")).toBe("The-Castle");
    expect(entityToken("Zoë")).toBe("Zoë");
    expect(entityToken("foo (bar)")).toBe("foo-bar");
    expect(entityToken("!!!")).toBe("");
    expect(formatRetainLine({ kind: "world", entities: ["!!!", "A", "A"], content: "x" })).toBe("- W @A: x");
  });

  it("refuses a fact without content", () => {
    expect(() => formatRetainLine({ kind: "world", entities: [], content: "  \n " })).toThrow(/content/);
  });
});

describe("extractedSection", () => {
  const body = `## Retain (extracted)\n${extractedComment({ model: "m" })}\n- W: x\n`;
  const one: ExtractedFact[] = [{ kind: "world", entities: [], content: "x" }];

  it("keeps existing bytes and separates the section by one blank line", () => {
    expect(extractedSection("a\n", one, { model: "m" })).toBe(`\n${body}`);
    expect(extractedSection("a", one, { model: "m" })).toBe(`\n\n${body}`);
    expect(extractedSection("a\n\n", one, { model: "m" })).toBe(body);
    expect(extractedSection("", one, { model: "m" })).toBe(body);
    expect(extractedSection("a\n", [], { model: "m" })).toBe("");
  });

  it("uses CRLF in a CRLF file", () => {
    const out = extractedSection("a\r\nb", one, { model: "m" });
    expect(out).toBe(`\r\n\r\n${body.replace(/\n/g, "\r\n")}`);
    expect(out.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("names the model and the source in the marker comment", () => {
    expect(extractedComment({ model: "claude-x" })).toContain("membank (claude-x) from this log");
    expect(extractedComment({ source: "sessions" })).toContain("from chat sessions");
    expect(extractedComment({ model: "evil --> model" })).not.toMatch(/-->.*-->/);
  });
});

describe("Retain section detection", () => {
  it("finds own Retain sections, ignoring fenced code and sessions-derived sections", () => {
    expect(hasOwnRetain("# Day\n\nWent hiking.\n")).toBe(false);
    expect(hasOwnRetain("# Day\n\n## Retain\n- W: x\n")).toBe(true);
    expect(hasOwnRetain("# Day\n\n## retain (extracted)\n<!-- Extracted by membank from this log -->\n")).toBe(true);
    expect(hasOwnRetain("# Day\n\n```md\n## Retain\n```\n")).toBe(false);
    const sessions = `# Day\n\nText.\n\n## Retain (extracted)\n${extractedComment({ source: "sessions" })}\n- W: x\n`;
    expect(hasOwnRetain(sessions)).toBe(false);
    expect(narrativeText(sessions)).toBe("# Day\n\nText.\n");
  });
});

describe("appendExtractedRetain", () => {
  let dir: string;
  let ws: Workspace;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "membank-wb-"));
    await mkdir(path.join(dir, "memory"));
    ws = await openWorkspace(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("appends the section when the file is unchanged, leaving existing bytes alone", async () => {
    const file = path.join(dir, "memory/2026-03-04.md");
    const original = "# 2026-03-04\n\nLunch with Priya; she hates long meetings.";
    await writeFile(file, original);
    expect(await appendExtractedRetain(ws, "memory/2026-03-04.md", facts, original, { model: "claude-test" })).toBe(
      true,
    );
    const after = await readFile(file, "utf8");
    expect(after.startsWith(original)).toBe(true);
    expect(after.slice(original.length)).toBe(
      [
        "",
        "",
        "## Retain (extracted)",
        "<!-- Extracted by membank (claude-test) from this log. Correct or delete lines freely; while this heading stays, the log is not extracted again. -->",
        "- O(c=0.70) @Priya: Prefers async stand-ups over meetings.",
        "- W @Jonas @ledger-sync: Jonas owns the ledger-sync rollout.",
        "",
      ].join("\n"),
    );
    expect(hasOwnRetain(after)).toBe(true);
  });

  it("skips (false, file untouched) when the file changed since it was read", async () => {
    const file = path.join(dir, "memory/2026-03-04.md");
    await writeFile(file, "# Day\n\nEdited by a person.\n");
    expect(await appendExtractedRetain(ws, file, facts, "# Day\n")).toBe(false);
    expect(await readFile(file, "utf8")).toBe("# Day\n\nEdited by a person.\n");
    expect(await appendExtractedRetain(ws, "memory/2026-03-09.md", facts, "")).toBe(false);
  });

  it("keeps CRLF files CRLF", async () => {
    const file = path.join(dir, "memory/2026-03-04.md");
    const original = "# Day\r\n\r\nMet Jonas.\r\n";
    await writeFile(file, original);
    expect(await appendExtractedRetain(ws, file, facts, original)).toBe(true);
    const after = await readFile(file, "utf8");
    expect(after.startsWith(original)).toBe(true);
    expect(after.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("writes only into daily logs inside the workspace", async () => {
    await expect(appendExtractedRetain(ws, "../outside/2026-03-04.md", facts, "")).rejects.toBeInstanceOf(MembankError);
    await expect(appendExtractedRetain(ws, "bank/world.md", facts, "")).rejects.toThrow(/not a daily log/);
    await expect(appendExtractedRetain(ws, "memory/2026-03-04.md", [], "")).resolves.toBe(false);
  });
});
