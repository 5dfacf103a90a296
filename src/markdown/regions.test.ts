import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyRegions, bodyHash, RegionError, readRegions, renderRegion } from "./regions.js";

const page = (facts: string, extra = "") =>
  `# Title\n\nintro by hand\n\n${renderRegion("facts", facts)}\n\n## Notes\n\nmine${extra}\n`;

describe("managed regions with ownership hashes", () => {
  it("writes the body and records its hash in the end marker", () => {
    const text = "# T\n\n<!-- membank:begin facts -->\n<!-- membank:end facts -->\n";
    const out = applyRegions(text, new Map([["facts", "- one\n"]]));
    expect(out.text).toBe(
      `# T\n\n<!-- membank:begin facts -->\n- one\n<!-- membank:end facts sha=${bodyHash("- one\n")} -->\n`,
    );
    expect(out.written).toEqual(["facts"]);
    expect(out.conflicts).toEqual([]);
  });

  it("never changes text outside the markers (property)", () => {
    const outside = fc.string().filter((s) => !s.includes("<!--") && !s.includes("-->"));
    fc.assert(
      fc.property(outside, outside, fc.string(), fc.string(), (before, after, oldBody, newBody) => {
        const safe = (s: string) => s.replace(/<!--|-->/g, "");
        const text = `${before}\n${renderRegion("r", safe(oldBody))}\n${after}`;
        const out = applyRegions(text, new Map([["r", safe(newBody)]])).text;
        expect(out.startsWith(`${before}\n<!-- membank:begin r -->\n`)).toBe(true);
        expect(out.endsWith(` -->\n${after}`)).toBe(true);
        expect(readRegions(out)[0]!.body).toBe(
          safe(newBody) === "" || safe(newBody).endsWith("\n") ? safe(newBody) : `${safe(newBody)}\n`,
        );
      }),
    );
  });

  it("keeps a human edit inside a region and reports a conflict", () => {
    const edited = page("- one\n").replace("- one\n", "- one (corrected by hand)\n");
    const out = applyRegions(edited, new Map([["facts", "- one\n- two\n"]]));
    expect(out.text).toBe(edited);
    expect(out.conflicts).toEqual(["facts"]);
  });

  it("is not a conflict when the human text already equals the new body", () => {
    const edited = page("- one\n").replace("- one\n", "- one\n- two\n");
    const out = applyRegions(edited, new Map([["facts", "- one\n- two\n"]]));
    expect(out.conflicts).toEqual([]);
    expect(out.text).toBe(page("- one\n- two\n"));
  });

  it("writes a region whose hash a person removed (handing it back)", () => {
    const edited = page("- one\n")
      .replace("- one\n", "- mine\n")
      .replace(/ sha=[0-9a-f]+/, "");
    const out = applyRegions(edited, new Map([["facts", "- one\n"]]));
    expect(out.conflicts).toEqual([]);
    expect(out.text).toBe(page("- one\n"));
  });

  it("inserts missing regions in the given order without touching existing text", () => {
    const text = `# P\n\n${renderRegion("2026-01", "jan\n")}\n\nfooter\n`;
    const bodies = new Map([
      ["2026-03", "mar\n"],
      ["2026-02", "feb\n"],
      ["2026-01", "jan\n"],
      ["2025-12", "dec\n"],
    ]);
    const out = applyRegions(text, bodies, ["2026-03", "2026-02", "2026-01", "2025-12"]);
    expect(readRegions(out.text).map((r) => r.name)).toEqual(["2026-03", "2026-02", "2026-01", "2025-12"]);
    expect(out.text.startsWith("# P\n\n<!-- membank:begin 2026-03 -->")).toBe(true);
    expect(out.text.endsWith("\n\nfooter\n")).toBe(true);
    // Stable: applying again changes nothing.
    expect(applyRegions(out.text, bodies, ["2026-03", "2026-02", "2026-01", "2025-12"]).text).toBe(out.text);
  });

  it("drops a region with its blank line: the page is as if it had never been added (property)", () => {
    const months = ["2026-04", "2026-03", "2026-02", "2026-01"];
    const base = "# Observations\n\nintro by hand\n";
    fc.assert(
      fc.property(fc.subarray(months, { minLength: 1 }), fc.nat(), fc.boolean(), (kept, pick, footer) => {
        const start = footer ? `${base}\n## Notes\n\nmine\n` : base;
        const build = (names: readonly string[]) =>
          applyRegions(start, new Map(names.map((m) => [m, `## ${m}\n\n- fact\n`])), months).text;
        const gone = kept[pick % kept.length]!;
        const rest = kept.filter((m) => m !== gone);
        const out = applyRegions(build(kept), new Map(), months, new Set(), "p.md", new Set([gone]));
        expect(out.text).toBe(build(rest));
        expect(out.written).toEqual([gone]);
      }),
    );
  });

  it("keeps a region to drop that a person edited, as a conflict", () => {
    const edited = page("- one\n").replace("- one\n", "- one, and my note\n");
    const out = applyRegions(edited, new Map(), [], new Set(), "p.md", new Set(["facts"]));
    expect(out.text).toBe(edited);
    expect(out.conflicts).toEqual(["facts"]);
  });

  it("appends regions to a page that has none", () => {
    const out = applyRegions("# Opinions\n\nHello.\n", new Map([["op-a", "A\n"]]));
    expect(out.text).toBe(`# Opinions\n\nHello.\n\n${renderRegion("op-a", "A\n")}\n`);
  });

  it("reports unbalanced markers with their line", () => {
    expect(() => readRegions("a\n<!-- membank:begin x -->\nb\n")).toThrow(RegionError);
    try {
      readRegions("a\nb\n<!-- membank:end x -->\n");
    } catch (error) {
      expect((error as RegionError).line).toBe(3);
    }
    expect(() => readRegions("<!-- membank:begin x -->\n<!-- membank:begin y -->\n")).toThrow(/not closed/);
  });
});

describe("line endings (a Windows checkout with core.autocrlf)", () => {
  const crlf = (s: string) => s.replace(/\n/g, "\r\n");

  it("a CRLF copy of a page membank wrote is not a hand edit, and is rewritten in CRLF", () => {
    const lf = page("- one\n");
    const text = crlf(lf);
    const same = applyRegions(text, new Map([["facts", "- one\n"]]));
    expect(same.conflicts).toEqual([]);
    expect(same.written).toEqual([]);
    expect(same.text).toBe(text);
    const next = applyRegions(text, new Map([["facts", "- one\n- two\n"]]));
    expect(next.conflicts).toEqual([]);
    expect(next.text).toBe(crlf(page("- one\n- two\n")));
  });

  it("a real edit of a CRLF page is still a conflict", () => {
    const text = crlf(page("- one\n")).replace("- one", "- one (mine)");
    const out = applyRegions(text, new Map([["facts", "- two\n"]]));
    expect(out.conflicts).toEqual(["facts"]);
    expect(out.text).toBe(text);
  });

  it("new regions in a CRLF page are CRLF", () => {
    const out = applyRegions("# Opinions\r\n\r\nHello.\r\n", new Map([["op-a", "A\n"]]));
    expect(out.text).toBe(crlf(`# Opinions\n\nHello.\n\n${renderRegion("op-a", "A\n")}\n`));
    const two = applyRegions(
      out.text,
      new Map([
        ["op-b", "B\n"],
        ["op-a", "A\n"],
      ]),
      ["op-b", "op-a"],
    );
    expect(two.text).not.toMatch(/[^\r]\n/);
  });

  it("a page with mixed endings keeps every byte outside the regions and each region's own ending", () => {
    const text = [
      "---\r\naliases: []\r\n---\r\n# Ana\r\n\r\n",
      renderRegion("summary", "old\n", "\r\n"),
      "\n\nwritten on Linux later\n\n",
      renderRegion("facts", "- a\n- b\n"),
      "\r\n## Notes\r\nmine\n",
    ].join("");
    const out = applyRegions(
      text,
      new Map([
        ["summary", "new\nlines\n"],
        ["facts", "- a\n- b\n- c\n"],
      ]),
    );
    expect(out.conflicts).toEqual([]);
    expect(out.text).toBe(
      [
        "---\r\naliases: []\r\n---\r\n# Ana\r\n\r\n",
        renderRegion("summary", "new\nlines\n", "\r\n"),
        "\n\nwritten on Linux later\n\n",
        renderRegion("facts", "- a\n- b\n- c\n"),
        "\r\n## Notes\r\nmine\n",
      ].join(""),
    );
    expect(out.text).not.toContain("\r\r");
  });

  it("hashes ignore line endings (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string().map((s) => s.replace(/[\r\n]/g, ""))), (lines) => {
        const body = lines.map((l) => `${l}\n`).join("");
        expect(bodyHash(crlf(body))).toBe(bodyHash(body));
        expect(readRegions(crlf(renderRegion("r", body)))[0]!.sha).toBe(bodyHash(body));
      }),
    );
  });
});

describe("managed regions", () => {
  const doc =
    "\uFEFFTop text\r\n<!-- membank:begin facts -->\r\nold 1\r\nold 2\r\n<!-- membank:end facts -->\r\nmiddle\r\n<!-- membank:begin empty -->\r\n<!-- membank:end empty -->\r\ntail without newline";

  it("reads regions with exact bodies and marker lines", () => {
    expect(readRegions(doc)).toEqual([
      { name: "facts", body: "old 1\r\nold 2\r\n", startLine: 2, endLine: 5 },
      { name: "empty", body: "", startLine: 7, endLine: 8 },
    ]);
  });

  it("ignores markers shown inside fenced code", () => {
    const text = "```\n<!-- membank:begin shown -->\n```\n";
    expect(readRegions(text)).toEqual([]);
  });

  it("fails clearly on unbalanced markers", () => {
    expect(() => readRegions("a\n<!-- membank:begin x -->\nb\n", "bank/p.md")).toThrow(
      /bank\/p\.md:2: region "x" has no end marker/,
    );
    expect(() => readRegions("<!-- membank:end x -->\n")).toThrow(/line 1: end marker of region "x" without a begin/);
    expect(() => readRegions("<!-- membank:begin a -->\n<!-- membank:begin b -->\n")).toThrow(/cannot nest/);
    expect(() => readRegions("<!-- membank:begin a -->\n<!-- membank:end b -->\n")).toThrow(/region "a" .* is open/);
    expect(() =>
      readRegions(
        "<!-- membank:begin a -->\n<!-- membank:end a -->\n<!-- membank:begin a -->\n<!-- membank:end a -->\n",
      ),
    ).toThrow(/appears twice/);
  });
});
