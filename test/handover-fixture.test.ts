// fixtures/handover: a shop manager's handover notes (8 days, no Retain, no MEMORY.md) with two
// Chrises, the area manager Chris Bell and the Saturday lad Chris Adair ("Chris A"). Written after
// shared-names.ts's first rules and checked once: both pages right, but a bare "Chris rang"
// four lines under "Chris Adair's last Saturday" went to Adair (the log's last full name); since
// then only the line or paragraph right above carries a full name to a bare one.
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureAfterNightly, type NightlyFixture } from "./prose-fixture-support.js";

let fx: NightlyFixture;
const cites = (text: string, line: string) => text.includes(`(../../memory/2026-${line})`);

beforeAll(async () => {
  fx = await fixtureAfterNightly("handover");
  await fx.mb.close();
}, 90_000);

describe("two Chrises in a shop's handover notes", () => {
  it("a page each, each citing its own lines and never the other's", async () => {
    expect(fx.pages).not.toContain("Chris");
    for (const junk of ["Bell", "Adair", "Warburtons"]) expect(fx.pages).not.toContain(junk);
    const [bell, adair] = [await fx.page("Chris-Bell"), await fx.page("Chris-Adair")];
    const bells = ["05-04.md#L5", "05-05.md#L5", "05-07.md#L3", "05-07.md#L5", "05-16.md#L5"];
    const adairs = ["05-04.md#L7", "05-05.md#L7", "05-13.md#L3", "05-16.md#L3"];
    for (const line of bells) {
      expect(cites(bell, line), line).toBe(true);
      expect(cites(adair, line), line).toBe(false);
    }
    for (const line of adairs) {
      expect(cites(adair, line), line).toBe(true);
      expect(cites(bell, line), line).toBe(false);
    }
    // "Chris rang re: the replacement" is the area manager: four lines under Chris Adair is no evidence.
    expect(cites(adair, "05-13.md#L7")).toBe(false);
  });
});
