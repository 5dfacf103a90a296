import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lexicalTerms, matchEntities, understandQuery } from "./intent.js";
import { overlapsWindow, parseTimeWindow } from "./timewindow.js";

const asOf = new Date("2026-03-20T12:00:00Z"); // a Friday
const entities = [
  { slug: "Priya" },
  { slug: "Jonas", names: ["Jo"] },
  { slug: "Zoë" },
  { slug: "ledger-sync" },
  { slug: "The-Castle", names: ["Castle"] },
  { slug: "Mara" },
];

describe("entity matching", () => {
  it("is case-, slug- and @-insensitive and accepts possessives", () => {
    expect(matchEntities("what do we know about ledger-sync?", entities)).toEqual(["ledger-sync"]);
    expect(matchEntities("what do we know about Ledger Sync", entities)).toEqual(["ledger-sync"]);
    expect(matchEntities("status of @ledger-sync", entities)).toEqual(["ledger-sync"]);
    expect(matchEntities("LEDGER_SYNC outage", entities)).toEqual(["ledger-sync"]);
    expect(matchEntities("Tell me about Priya's plans", entities)).toEqual(["Priya"]);
    expect(matchEntities("what did zoe say", entities)).toEqual(["Zoë"]);
  });

  it("matches aliases and multi-word names, whole words only, in query order", () => {
    expect(matchEntities("did Jo and Priya meet at the castle?", entities)).toEqual(["Jonas", "Priya", "The-Castle"]);
    expect(matchEntities("dinner at The Castle", entities)).toEqual(["The-Castle"]);
    expect(matchEntities("a joke about priyanka", entities)).toEqual([]);
  });

  it("finds every entity name embedded in random text (property)", () => {
    const filler = fc.constantFrom("what", "about", "the", "plan", "for", "and", "status");
    fc.assert(
      fc.property(
        fc.array(filler, { maxLength: 5 }),
        fc.array(filler, { maxLength: 5 }),
        fc.constantFrom(...entities),
        (a, b, e) => {
          const spelled = e.slug.replace(/-/g, " ");
          expect(matchEntities([...a, `@${spelled}`, ...b].join(" "), entities)).toContain(e.slug);
        },
      ),
    );
  });
});

describe("time windows relative to asOf", () => {
  const w = (q: string) => {
    const win = parseTimeWindow(q, asOf);
    return win ? { from: win.from, to: win.to } : undefined;
  };

  it("widens 'around' to a few days", () => {
    expect(w("what happened around March 12?")).toEqual({ from: "2026-03-09", to: "2026-03-15" });
  });
  it("takes a single day as that day", () => {
    expect(w("what happened on March 12?")).toEqual({ from: "2026-03-12", to: "2026-03-12" });
    expect(w("yesterday")).toEqual({ from: "2026-03-19", to: "2026-03-19" });
    expect(w("notes from 2026-03-04")).toEqual({ from: "2026-03-04", to: "2026-03-20" });
  });
  it("handles weeks", () => {
    expect(w("the week of March 16")).toEqual({ from: "2026-03-16", to: "2026-03-22" });
    expect(w("since last week")).toEqual({ from: "2026-03-09", to: "2026-03-20" });
    expect(w("what did we do last week")).toEqual({ from: "2026-03-09", to: "2026-03-15" });
  });
  it("handles months and years", () => {
    expect(w("in November 2025")).toEqual({ from: "2025-11-01", to: "2025-11-30" });
    expect(w("last month")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(w("what did Priya decide in March?")).toEqual({ from: "2026-03-01", to: "2026-03-31" });
    expect(w("everything in 2025")).toEqual({ from: "2025-01-01", to: "2025-12-31" });
  });
  it("reads a month or day without a year as the latest one on or before asOf", () => {
    const late = (q: string) => {
      const win = parseTimeWindow(q, new Date("2026-11-22T12:00:00Z"));
      return win ? { from: win.from, to: win.to } : undefined;
    };
    expect(late("what did Priya decide in March?")).toEqual({ from: "2026-03-01", to: "2026-03-31" });
    expect(late("what happened on March 12?")).toEqual({ from: "2026-03-12", to: "2026-03-12" });
    expect(late("what happened on December 30?")).toEqual({ from: "2025-12-30", to: "2025-12-30" });
    expect(late("in November")).toEqual({ from: "2026-11-01", to: "2026-11-30" });
    expect(late("between Dec 28 and Jan 3")).toEqual({ from: "2025-12-28", to: "2026-01-03" });
  });
  it("handles open and counted ranges", () => {
    expect(w("since March 2")).toEqual({ from: "2026-03-02", to: "2026-03-20" });
    expect(w("before March 2")).toEqual({ from: undefined, to: "2026-03-02" });
    expect(w("the last 3 days")).toEqual({ from: "2026-03-17", to: "2026-03-20" });
    expect(w("between March 2 and March 5")).toEqual({ from: "2026-03-02", to: "2026-03-05" });
  });
  it("reads ordinal weeks and weekends of a month, and days or weeks before or after a date", () => {
    expect(w("where did Andrew go during the first weekend of August 2023?")).toEqual({
      from: "2023-08-05",
      to: "2023-08-06",
    });
    expect(w("the last week of October 2025")).toEqual({ from: "2025-10-25", to: "2025-10-31" });
    expect(w("in the second week of February")).toEqual({ from: "2026-02-08", to: "2026-02-14" });
    expect(w("what did we do the weekend before 4th October, 2023?")).toEqual({
      from: "2023-09-30",
      to: "2023-10-01",
    });
    expect(w("the week before August 3, 2023")).toEqual({ from: "2023-07-27", to: "2023-08-02" });
    expect(w("the day after March 3")).toEqual({ from: "2026-03-04", to: "2026-03-04" });
    expect(w("what did Maria plan for the evening of 7 July, 2025?")).toEqual({ from: "2025-07-07", to: "2025-07-07" });
  });
  it("reads 'in the last year' as the past 365 days and 'as of' as an upper bound", () => {
    expect(w("who visited in the last year?")).toEqual({ from: "2025-03-20", to: "2026-03-20" });
    expect(w("how many pets as of September 2025?")).toEqual({ from: undefined, to: "2025-09-30" });
  });
  it("marks 'recently' as vague, and lets a named date win over it", () => {
    expect(parseTimeWindow("what did John recently get promoted to?", asOf)).toMatchObject({
      from: "2026-03-06",
      to: "2026-03-20",
      vague: true,
    });
    const named = parseTimeWindow("what did Maria start recently, as mentioned on 3 March?", asOf);
    expect(named).toEqual({ text: "on 3 March", from: "2026-03-03", to: "2026-03-03" });
  });
  it("always gives a well-formed window, whatever words surround a time phrase", () => {
    const phrase = fc.constantFrom(
      "recently",
      "on March 3",
      "the first weekend of August 2023",
      "the last week of October",
      "the weekend before 4th October, 2023",
      "the week after March 30",
      "the day before January 1",
      "the evening of 7 July, 2025",
      "as of May 2025",
      "in the last year",
      "since last week",
      "between Dec 28 and Jan 3",
      "around March 12",
      "in 2024",
    );
    const words = fc.array(fc.constantFrom("what", "did", "Mara", "say", "about", "the", "castle", "?", "and", "of"), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(
        words,
        phrase,
        words,
        fc.date({ min: new Date("2000-01-01"), max: new Date("2040-01-01"), noInvalidDate: true }),
        (a, p, b, at) => {
          const q = [...a, p, ...b].join(" ");
          const win = parseTimeWindow(q, at);
          expect(win, q).toBeDefined();
          for (const d of [win!.from, win!.to]) if (d !== undefined) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          if (win!.from && win!.to) expect(win!.from <= win!.to, `${q}: ${win!.from}..${win!.to}`).toBe(true);
          expect(q).toContain(win!.text);
        },
      ),
    );
  });
  it("ignores numbers that are not dates", () => {
    expect(w("LEDGER_SYNC_BATCH=500")).toBeUndefined();
    expect(w("ticket FJD-482 and commit a91f3c2")).toBeUndefined();
    expect(w("who is Priya")).toBeUndefined();
  });
  it("overlaps facts by date or validity range", () => {
    const win = { from: "2026-03-09", to: "2026-03-15" };
    expect(overlapsWindow(win, "2026-03-10")).toBe(true);
    expect(overlapsWindow(win, "2026-03-01")).toBe(false);
    expect(overlapsWindow(win, "2026-03-01", "2026-03-01", "2026-03-09")).toBe(true);
    expect(overlapsWindow({ to: "2026-03-01" }, "2026-02-01")).toBe(true);
  });
});

describe("lexical terms", () => {
  it("drops stop words and keeps exact tokens whole", () => {
    expect(lexicalTerms("what was the fix for FJD-482 in a91f3c2?")).toEqual([
      { text: "fix", exact: false },
      { text: "FJD-482", exact: true },
      { text: "a91f3c2", exact: true },
    ]);
    expect(lexicalTerms("why LEDGER_SYNC_BATCH=500?").map((t) => t.text)).toEqual(["LEDGER_SYNC_BATCH=500"]);
  });

  it("keeps 'show' where it names a thing, drops it where it asks", () => {
    const words = (q: string) => lexicalTerms(q).map((t) => t.text);
    expect(words("when does the dog show open?")).toEqual(["dog", "show", "open"]);
    expect(words("what did we think of the show?")).toContain("show");
    expect(words("show me what Priya said about pricing")).toEqual(["priya", "pricing"]);
    expect(words("can you show the invoices from May")).toEqual(["invoices", "may"]);
    expect(words("please show all notes on the boiler")).toEqual(["notes", "boiler"]);
  });

  it("a joined compound also asks for its parts as a phrase, the same word as written", () => {
    expect(lexicalTerms("when is the checkin?")).toEqual([
      { text: "checkin", exact: false },
      { text: "check-in", exact: true, joinedFrom: "checkin" },
    ]);
    expect(lexicalTerms("did the contract come by email").map((t) => t.text)).toContain("e-mail");
  });
});

describe("understandQuery", () => {
  it("asks for no topic in 'when did I last see X?': the lines naming X answer", () => {
    const i = understandQuery("when did I last see Priya?", { asOf, entities });
    expect(i.kinds).toEqual(["entity"]);
    expect(i.terms.map((t) => t.text)).toEqual(["priya"]);
    // Meeting words stay search words when no one is named, or no "last" asks for the newest.
    expect(understandQuery("when did I last see the dentist?", { asOf, entities }).terms.map((t) => t.text)).toContain(
      "see",
    );
    expect(understandQuery("did Priya see the report?", { asOf, entities }).contentTerms.map((t) => t.text)).toContain(
      "see",
    );
  });
  it("detects an entity question", () => {
    const i = understandQuery("Tell me about Priya", { asOf, entities });
    expect(i.entities).toEqual(["Priya"]);
    expect(i.kinds).toEqual(["entity"]);
    expect(i.window).toBeUndefined();
  });
  it("detects opinion cues", () => {
    for (const q of [
      "what does Mara prefer for status updates?",
      "does Jonas still think the migration is safe?",
      "what is Priya's opinion on ledger-sync",
      "how does Zoë feel about standups",
      "do we believe the castle is ready",
    ]) {
      expect(understandQuery(q, { asOf, entities }).kinds, q).toContain("opinion");
    }
    expect(understandQuery("does Jonas still think so", { asOf, entities }).opinionCue).toBe("still think");
    expect(understandQuery("what broke on ledger-sync", { asOf, entities }).kinds).not.toContain("opinion");
  });
  it("detects mixes and removes the time phrase from the words", () => {
    const i = understandQuery("what did Priya decide in March?", { asOf, entities });
    expect(i.entities).toEqual(["Priya"]);
    expect(i.kinds).toEqual(["entity", "time", "lexical"]);
    expect(i.window).toMatchObject({ from: "2026-03-01", to: "2026-03-31" });
    expect(i.terms.map((t) => t.text)).toEqual(["priya", "decide"]);
    expect(i.contentTerms.map((t) => t.text)).toEqual(["decide"]);
  });
  it("a hyphenated entity name's joined form is that name, not another word of the question", () => {
    const i = understandQuery("what happened with ledger-sync last week?", { asOf, entities });
    expect(i.entities).toEqual(["ledger-sync"]);
    expect(i.terms.map((t) => t.text)).toContain("ledgersync");
    expect(i.contentTerms).toEqual([]);
    expect(i.kinds).not.toContain("lexical");
  });
  it("is a pure lexical question without names or dates", () => {
    const i = understandQuery("FJD-482", { asOf, entities });
    expect(i).toEqual({
      entities: [],
      kinds: ["lexical"],
      terms: [{ text: "FJD-482", exact: true }],
      contentTerms: [{ text: "FJD-482", exact: true }],
    });
  });
});
