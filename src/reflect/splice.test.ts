import { describe, expect, it } from "vitest";
import { renderRegion } from "../markdown/regions.js";
import { spliceMentions } from "./splice.js";

const page = (facts: string, eol = "\n") =>
  [
    "# Mara",
    "",
    renderRegion("summary", "@Mara: 2 facts on 2 days.\n", eol),
    "",
    "## Timeline",
    "",
    renderRegion("facts", facts, eol),
    "",
    renderRegion("opinions", "No opinions yet.\n", eol),
    renderRegion("related", "None yet.\n", eol),
    "",
  ].join(eol);

const TIMELINE = "- 2026-03-04 — Contract extended to June.\n- 2026-03-02 — Her contract ends in March.";
const OLD_MENTIONS = "\n\n### Mentioned in (1 line with no fact)\n\n- 2026-03-10 — asked Mara about Q2";
const NEW_MENTIONS =
  "\n\n### Mentioned in (2 lines with no fact)\n\n- 2026-03-19 — Mara pinged\n- 2026-03-10 — asked Mara about Q2";

describe("spliceMentions", () => {
  it("replaces the mentions block and keeps the rest of the facts region, the summary and related", () => {
    const out = spliceMentions(page(`${TIMELINE}${OLD_MENTIONS}\n`), NEW_MENTIONS, "");
    expect(out?.get("facts")).toBe(`${TIMELINE}${NEW_MENTIONS}\n`);
    expect(out?.get("summary")).toBe("@Mara: 2 facts on 2 days.\n");
    expect(out?.get("related")).toBe("None yet.\n");
  });

  it("adds a first block, removes a last one, and reads a CRLF page", () => {
    expect(spliceMentions(page(`${TIMELINE}\n`), NEW_MENTIONS, "")?.get("facts")).toBe(`${TIMELINE}${NEW_MENTIONS}\n`);
    expect(spliceMentions(page(`${TIMELINE}${OLD_MENTIONS}\n`), "", "")?.get("facts")).toBe(`${TIMELINE}\n`);
    expect(spliceMentions(page(`${TIMELINE}\n`, "\r\n"), "", "")?.get("facts")).toBe(`${TIMELINE}\n`);
  });

  it("gives up on a page it cannot trust: edited by hand, no hash, a region missing, broken markers", () => {
    const good = page(`${TIMELINE}\n`);
    expect(spliceMentions(good.replace("Her contract", "Her old contract"), "", "")).toBeUndefined();
    expect(spliceMentions(good.replace(/ sha=[0-9a-f]+ -->/, " -->"), "", "")).toBeUndefined();
    expect(
      spliceMentions(good.replace(/<!-- membank:begin related -->[\s\S]*?end related[^>]*>/, ""), "", ""),
    ).toBeUndefined();
    expect(spliceMentions(good.replace("<!-- membank:end facts", "<!-- nope"), "", "")).toBeUndefined();
  });

  it("gives up when the alias suggestions at the end of the summary are not those of today", () => {
    const maybe = "Maybe the same as (not merged):\n\n- @Zoë — the same name but for accents";
    expect(spliceMentions(page(`${TIMELINE}\n`), "", maybe)).toBeUndefined();
    const suggested = page(`${TIMELINE}\n`).replace(
      renderRegion("summary", "@Mara: 2 facts on 2 days.\n"),
      renderRegion("summary", `@Mara: 2 facts on 2 days.\n\n${maybe}\n`),
    );
    expect(spliceMentions(suggested, "", maybe)?.get("summary")).toBe(`@Mara: 2 facts on 2 days.\n\n${maybe}\n`);
    expect(spliceMentions(suggested, "", "")).toBeUndefined();
  });
});
