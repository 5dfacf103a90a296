import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireIndex, closeIndexes } from "../index/handles.js";
import { syncIndex } from "../index/sync.js";
import { openWorkspace } from "../workspace/workspace.js";
import { eventDay, eventWindow, findEventDay, parseEventAnchor } from "./event-time.js";
import { understandQuery } from "./intent.js";

describe("time anchored to an event", () => {
  it("reads the span and the event's words from the question", () => {
    expect(parseEventAnchor("what happened the day after the flood?")).toEqual({
      unit: "day",
      relation: "after",
      words: ["flood"],
      text: "the day after the flood",
      lead: "the day after the",
    });
    expect(parseEventAnchor("who covered for me the week of the move")).toMatchObject({
      unit: "week",
      relation: "of",
      words: ["move"],
    });
    expect(parseEventAnchor("anything odd since the surgery")).toMatchObject({ relation: "after", words: ["surgery"] });
    expect(parseEventAnchor("what did I wear the night before Dee's wedding?")).toMatchObject({
      unit: "day",
      relation: "before",
      words: ["dee", "wedding"],
      text: "the night before Dee's wedding",
    });
    // the event's name ends at a function word
    expect(parseEventAnchor("what did Sam say the day after the meeting with Bob")?.words).toEqual(["meeting"]);
  });

  it("names no event for times, dates and other uses of the words", () => {
    for (const q of [
      "what changed since the start of May",
      "the week after the holidays",
      "what did I do the day before March 3",
      "since it's raining, what's on",
      "because of the flood",
      "who do I see before lunch",
      // "after the X" is as often "because of X": no window
      "how did Melanie feel after the accident",
      "how does Jon feel about the opening night of his dance studio",
    ])
      expect(parseEventAnchor(q), q).toBeUndefined();
  });

  it("dates the event by the lines naming it, a heading most, moved by tomorrow and the 11th", () => {
    const day = eventDay(
      [
        { date: "2026-03-16", text: "Neil says he can help with the move on the 11th." },
        { date: "2026-04-09", text: "Swapped a shift so I'm off for the move." },
        { date: "2026-04-11", text: "# Moving day" },
        { date: "2026-04-20", text: "Still unpacking after the move, boxes everywhere." },
      ],
      ["move"],
    );
    expect(day).toBe("2026-04-11");
    expect(
      eventDay([{ date: "2026-07-11", text: "Charity ride for the hospice tomorrow." }], ["hospice", "ride"]),
    ).toBe("2026-07-12");
    // a line giving the event a calendar day, in its own sentence after another, votes for that day
    expect(
      eventDay(
        [
          { date: "2027-05-03", text: "Rang the venue. The recital is Saturday 15 May, doors at 6." },
          { date: "2027-05-03", text: "Amara said her recital last spring was packed." },
          { date: "2027-05-15", text: "## Recital" },
        ],
        ["recital"],
      ),
    ).toBe("2027-05-15");
    // a tie, or a habit named on many days, dates nothing
    expect(
      eventDay(
        [
          { date: "2026-01-02", text: "gym" },
          { date: "2026-01-05", text: "gym" },
        ],
        ["gym"],
      ),
    ).toBeUndefined();
  });

  it("takes the window around the event's day", () => {
    const a = (q: string) => parseEventAnchor(q)!;
    expect(eventWindow(a("the day after the flood"), "2026-06-06")).toMatchObject({
      from: "2026-06-07",
      to: "2026-06-07",
    });
    expect(eventWindow(a("the week before the move"), "2026-04-11")).toMatchObject({
      from: "2026-04-04",
      to: "2026-04-10",
    });
    // Saturday 2026-04-11 is in the week of Monday 6 April
    expect(eventWindow(a("the week of the move"), "2026-04-11")).toMatchObject({
      from: "2026-04-06",
      to: "2026-04-12",
    });
    expect(eventWindow(a("the weekend after the move"), "2026-04-11")).toMatchObject({
      from: "2026-04-18",
      to: "2026-04-19",
    });
    // 2026-04-11 is a Saturday
    expect(eventWindow(a("the Sunday before the move"), "2026-04-11")).toMatchObject({
      from: "2026-04-05",
      to: "2026-04-05",
    });
    expect(eventWindow(a("the Saturday after the move"), "2026-04-11")).toMatchObject({ from: "2026-04-18" });
    expect(eventWindow(a("the Friday of the move"), "2026-04-11")).toMatchObject({ from: "2026-04-10" });
    expect(eventWindow(a("since the surgery"), "2026-02-17")).toEqual({
      from: "2026-02-17",
      text: "since the surgery",
    });
  });
});

let dir: string | undefined;
afterEach(() => {
  closeIndexes();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("an event dated by the logs of a workspace", () => {
  it("finds the event's day in the line store, and the question's window around it", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "membank-event-"));
    const files: Record<string, string> = {
      "memory/2026-06-02.md": "Roofers in from 8. They redid the flashing.\n",
      "memory/2026-06-06.md": "# Sat\nHuge storm. The workshop flooded, 5cm of water over the floor.\n",
      "memory/2026-06-07.md": "Went in to dry things out. Hired two dehumidifiers.\n",
      "memory/2026-06-10.md": "- Gareth: 30 days extra credit after the flood. Took it.\n",
      "MEMORY.md": "Shop floods now and then, the drain is old.\n",
    };
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), text);
    }
    await syncIndex(await openWorkspace(dir));
    const idx = acquireIndex(path.join(dir, ".memory/index.sqlite"));
    expect(findEventDay(idx, ["flood"])).toBe("2026-06-06");
    expect(findEventDay(idx, ["wedding"])).toBeUndefined();
    const ask = (q: string) =>
      understandQuery(q, { asOf: new Date("2026-08-01T12:00:00Z"), eventDay: (w) => findEventDay(idx, w) });
    const intent = ask("what happened the day after the flood?");
    expect(intent.window).toEqual({ from: "2026-06-07", to: "2026-06-07", text: "the day after the flood" });
    expect(intent.terms).toEqual([]);
    // an event the logs do not name: no window (not "tomorrow"), and its words are searched
    const wedding = ask("what happened the day after the wedding?");
    expect(wedding.window).toBeUndefined();
    expect(wedding.terms.map((t) => t.text)).toEqual(["wedding"]);
  });
});
