// Whose belief a statement is: the person before the colon, unless the statement itself
// says it reports someone else's ("Priya thinks ...", "per @Tomasz, ...").
import { describe, expect, it } from "vitest";
import { attributedTo, holderOf, topicOf } from "./topic.js";

describe("holderOf: a belief reported for someone else", () => {
  it.each([
    [["Hannah", "Priya"], "Priya thinks async standups will leave new hires feeling cut off", "priya"],
    [["Hannah", "Jonas"], "according to @Jonas, the Adyen migration is a waste of a quarter", "jonas"],
    [["Ruth", "Tomasz"], "per @Tomasz, the ingest service should move to Go", "tomasz"],
    [["Ruth", "Mara"], "as @Mara put it, the offsite in Porto is a waste of money", "mara"],
    [["Ruth", "Dana"], "@Dana's view: the Q2 roadmap is too ambitious", "dana"],
    [["Ruth", "Ines"], "@Ines strongly believes the Lisbon hub should be our second office", "ines"],
    [["Ruth", "Li"], '"Li is convinced the cache is the bottleneck"', "li"],
  ])("%j: %s -> %s", (entities, content, holder) => {
    expect(holderOf(entities, content)).toBe(holder);
  });

  it("keeps the writer as holder when the named person is no entity of the line, or is not reported", () => {
    // Dana is not tagged: the line stays Ruth's (a name alone could be anything).
    expect(holderOf(["Ruth"], "Dana believes the Q2 roadmap is too ambitious")).toBe("ruth");
    // Priya is what the belief is about, not whose it is.
    expect(holderOf(["Hannah"], "@Priya should lead the Q3 planning")).toBe("hannah");
    expect(attributedTo(["Ruth", "Per"], "performance reviews per quarter are too many")).toBeUndefined();
  });

  it("leaves the reporter out of what a reported belief is about", () => {
    const t = topicOf(["Hannah", "Priya"], "Priya thinks async standups will leave new hires feeling cut off");
    expect(t.holder).toBe("priya");
    expect([...t.entities]).toEqual([]);
  });
});
