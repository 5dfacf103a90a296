import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BLOCK_BEGIN, BLOCK_END, retainBlockState, upsertRetainBlock } from "../src/openclaw/agents-block.js";

const GUIDANCE = "## Retain (membank)\n\nEnd each daily log with a `## Retain` section.\n";

const USER_AGENTS = `# AGENTS.md — how to behave

- Be brief on WhatsApp.
- Never send e-mail without asking.

## Tools
Use \`gh\` for GitHub, not the browser.`;

describe("the Retain block in AGENTS.md", () => {
  it("is appended after one blank line and leaves the user's text as it was", () => {
    const out = upsertRetainBlock(USER_AGENTS, GUIDANCE);
    expect(out.startsWith(`${USER_AGENTS}\n\n${BLOCK_BEGIN}\n## Retain (membank)`)).toBe(true);
    expect(out.endsWith(`${BLOCK_END}\n`)).toBe(true);
    expect(retainBlockState(out, GUIDANCE)).toBe("current");
    expect(retainBlockState(USER_AGENTS, GUIDANCE)).toBe("missing");
  });

  it("makes a missing or empty AGENTS.md hold just the block", () => {
    expect(upsertRetainBlock("", GUIDANCE)).toBe(`${BLOCK_BEGIN}\n${GUIDANCE.trim()}\n${BLOCK_END}\n`);
  });

  it("replaces an old block in place, keeping what the user wrote before and after it", () => {
    const old = `# Rules\n\n${BLOCK_BEGIN}\nold wording\n${BLOCK_END}\n\n## Mine\nkeep me\n`;
    expect(retainBlockState(old, GUIDANCE)).toBe("stale");
    const out = upsertRetainBlock(old, GUIDANCE);
    expect(out).toBe(`# Rules\n\n${BLOCK_BEGIN}\n${GUIDANCE.trim()}\n${BLOCK_END}\n\n## Mine\nkeep me\n`);
  });

  it("never eats text when someone deleted the end marker: a fresh block is appended", () => {
    const broken = `# Rules\n${BLOCK_BEGIN}\nhalf a block\n\n## Mine\nkeep me\n`;
    const out = upsertRetainBlock(broken, GUIDANCE);
    expect(out.startsWith(broken)).toBe(true);
    expect(out.slice(broken.length)).toContain(BLOCK_END);
  });

  it("is idempotent and keeps any marker-free text as its prefix (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        fc.pre(!text.includes("<!-- membank:"));
        const once = upsertRetainBlock(text, GUIDANCE);
        expect(upsertRetainBlock(once, GUIDANCE)).toBe(once);
        expect(retainBlockState(once, GUIDANCE)).toBe("current");
        if (text.trim() !== "") expect(once.startsWith(text)).toBe(true);
      }),
    );
  });
});
