import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageContent } from "./page-content.js";

const TEMPLATE = `---
aliases: []
---
# {{name}}

<!-- membank:begin summary -->
<!-- membank:end summary -->

## Facts

<!-- membank:begin facts -->
<!-- membank:end facts -->

## Notes

Your own notes go here. membank only writes between its markers.
`;

describe("pageContent", () => {
  it("keeps what the page says, drops markers, front matter, template help and empty sections", () => {
    const page = [
      "---",
      "aliases: [Jo, 'Johanna B.']",
      "---",
      "# Johanna",
      "",
      "<!-- membank:begin summary -->",
      "@Johanna: 2 facts on 2 days.",
      "<!-- membank:end summary sha=0123456789ab -->",
      "",
      "## Facts",
      "",
      "<!-- membank:begin facts -->",
      "No facts yet.",
      "<!-- membank:end facts -->",
      "",
      "## Notes",
      "",
      "Your own notes go here. membank only writes between its markers.",
      "",
      "met her at the climbing gym — she belays for Tuesday group",
      "",
    ].join("\r\n");
    expect(pageContent(page, TEMPLATE, ["No facts yet.\n"])).toBe(
      "# Johanna\n\n@Johanna: 2 facts on 2 days.\n\n## Notes\n\nmet her at the climbing gym — she belays for Tuesday group",
    );
  });

  it("keeps a person's edit inside a region and headings that have something under them", () => {
    const page = `# Castle\n\n## Facts\n<!-- membank:begin facts -->\n### World\n\n- roof leaks (fixed by hand, don't regenerate)\n<!-- membank:end facts sha=deadbeef0000 -->\n\n### Empty sub\n\n## Related\n`;
    expect(pageContent(page)).toBe("# Castle\n\n## Facts\n### World\n\n- roof leaks (fixed by hand, don't regenerate)");
  });

  it("shows a page with broken markers as it is (a person is mid-edit), only without front matter", () => {
    const page = "---\nname: X\n---\n# X\n\n<!-- membank:begin facts -->\n- half written\n";
    expect(pageContent(page)).toBe("# X\n\n<!-- membank:begin facts -->\n- half written");
  });

  it("never leaves a marker line of a well-formed page", () => {
    const line = fc.oneof(
      fc.constantFrom("", "## Facts", "### World", "- a fact", "Some note.", "  indented"),
      fc.string({ maxLength: 20 }).filter((s) => !/<!--|```|~~~|[\r\n]/.test(s)),
    );
    const region = fc
      .tuple(fc.array(line, { maxLength: 4 }), fc.boolean())
      .map(([body, sha]) =>
        ["<!-- membank:begin NAME -->", ...body, `<!-- membank:end NAME${sha ? " sha=abcdef012345" : ""} -->`].join(
          "\n",
        ),
      );
    fc.assert(
      fc.property(fc.array(fc.oneof(line, region), { maxLength: 12 }), (blocks) => {
        // Region names are unique in a page (a repeated name is a marker error).
        const page = blocks.map((b, i) => b.replaceAll("NAME", `r${i}`)).join("\n");
        const out = pageContent(page, TEMPLATE);
        expect(out).not.toMatch(/<!--\s*membank:(begin|end)/);
      }),
    );
  });
});
