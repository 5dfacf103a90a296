// Two people who share a first name (shared-names.ts): a page each when full names or a kin
// word tell them apart, and each bare line on the page of the one its line or log names.
import { describe, expect, it } from "vitest";
import { type ProseLog, scanProse } from "./prose.js";
import { digestProse, namesOf, proseNames } from "./prose-names.js";

const log = (date: string, text: string): ProseLog => ({
  path: `memory/${date}.md`,
  date,
  lines: scanProse(text),
});
const cited = (found: ReturnType<typeof proseNames>, key: string) =>
  found.linesOf(key).map((m) => `${m.date.slice(5)}#L${m.line}`);

const twoJohns = [
  log("2026-03-09", "Grace gave me her plumber's number: John Pryce.\n\nJohn said foam lagging is fine."),
  log(
    "2026-03-19",
    "At the allotment John Keeling was furious about his letter.\n\nThe other John, Pryce, has plot 22.",
  ),
  log("2026-03-20", "John came round for tea."),
  log("2026-03-21", "Rang John about the boiler."),
];

describe("two people sharing a first name", () => {
  it("two surnames: a page each, a bare line to the one named above it in its log, else to neither", () => {
    const found = proseNames(twoJohns, new Map());
    expect(found.names.has("john")).toBe(false);
    expect(found.names.get("john-pryce")).toBe("John-Pryce");
    expect(found.names.get("john-keeling")).toBe("John-Keeling");
    // "John said" follows John Pryce in the same log; "Pryce" alone names him too.
    expect(cited(found, "john-pryce")).toEqual(["03-09#L1", "03-09#L3", "03-19#L3"]);
    expect(cited(found, "john-keeling")).toEqual(["03-19#L1"]);
    expect(found.unclear()).toEqual([
      {
        people: ["John-Keeling", "John-Pryce"],
        lines: ["memory/2026-03-20.md#L1", "memory/2026-03-21.md#L1"],
      },
    ]);
  });

  it("a full name further up the log than the paragraph right above says nothing about a bare line", () => {
    const logs = [
      log("2026-05-04", "Chris Bell rang about the window.\n\nChris Adair did the milk order."),
      log(
        "2026-05-13",
        "Chris Adair is off to college.\n\nMo's wife had the baby.\n\nChris rang about the replacement.\nChris says no agency.",
      ),
    ];
    const found = proseNames(logs, new Map());
    expect(cited(found, "chris-adair")).toEqual(["05-04#L3", "05-13#L1"]);
    expect(found.unclear()[0]?.lines).toEqual(["memory/2026-05-13.md#L5", "memory/2026-05-13.md#L6"]);
  });

  it("a kin word on the bare name: that one keeps the first name's page and its bare lines", () => {
    const logs = [
      log("2026-09-06", "My sister Jo came down with a flask.\n\nEmail from Jo Fairley about the fixture."),
      log("2026-09-17", "Rang Jo, she's coming Sunday."),
      log("2026-09-27", "Moved, thanks Jo F.\n\nKat sat with Jo on the sideline."),
    ];
    const found = proseNames(logs, new Map());
    expect(cited(found, "jo")).toEqual(["09-06#L1", "09-17#L1", "09-27#L3"]);
    expect(cited(found, "jo-fairley")).toEqual(["09-06#L3", "09-27#L1"]);
    expect(found.unclear()[0]?.lines).toEqual([]);
  });

  it("a spouse's kin word tells no one apart: 'my wife Ana' and 'Ana Silva' on a form are one page", () => {
    const logs = [
      log("2026-05-01", "My wife Ana made soup tonight."),
      log("2026-05-02", "Dentist booked for Ana Silva on the 12th, the form wanted her full name."),
      log("2026-05-03", "Ana is off to Porto for work on Friday."),
    ];
    const found = proseNames(logs, new Map());
    expect(found.names.has("ana-silva")).toBe(false);
    expect(cited(found, "ana")).toEqual(["05-01#L1", "05-02#L1", "05-03#L1"]);
  });

  it("MEMORY.md's full names tell them apart, and an initial names the one surname it starts", () => {
    const core = scanProse("- Sam Whitlock is our keeper; Sam Okoro is the physio.");
    const logs = [
      log("2026-09-08", "Sam O took Lou through some calf raises."),
      log("2026-09-13", "Sam made two saves. Sam was brilliant."),
    ];
    const found = proseNames(logs, new Map(), new Set(["sam"]), undefined, new Set(["sam"]), { core });
    expect(cited(found, "sam-okoro")).toEqual(["09-08#L1"]);
    expect(cited(found, "sam-whitlock")).toEqual([]);
    expect(found.unclear()[0]?.lines).toEqual(["memory/2026-09-13.md#L1"]);
  });

  it("two full names and no bare first name: two people, not the first name's likelier run", () => {
    const logs = [
      log("2026-09-01", "Warm-up by Sam Okoro. Back in goal: Sam Whitlock."),
      log("2026-09-22", "Ankle strapped by Sam Okoro."),
      log("2026-09-27", "Armband for Sam Whitlock today."),
    ];
    const found = proseNames(logs, new Map());
    expect(found.names.get("sam-okoro")).toBe("Sam-Okoro");
    expect(found.names.get("sam-whitlock")).toBe("Sam-Whitlock");
    expect(cited(found, "sam-okoro")).toEqual(["09-01#L1", "09-22#L1"]);
    expect(cited(found, "sam-whitlock")).toEqual(["09-01#L1", "09-27#L1"]);
  });

  it("a name of its own after a first name is a list without commas, not a second surname", () => {
    const logs = [
      log("2026-09-01", "Lou Smith did the warm-up. Then we gave Nadia a run on the wing."),
      log("2026-09-03", "Subs for Sunday: Lou Nadia Ellie"),
      log("2026-09-06", "Lou scored twice and Nadia once."),
    ];
    const found = proseNames(logs, new Map());
    expect(found.names.get("lou")).toBe("Lou");
    expect(found.names.has("lou-nadia")).toBe(false);
    expect(cited(found, "lou")).toEqual(["09-01#L1", "09-03#L1", "09-06#L1"]);
  });

  it("one surname and no kin word is one person: the first name's page as before", () => {
    const logs = [
      log("2026-03-09", "Spoke to John Pryce about the boiler."),
      log("2026-03-12", "He came at four and I paid John in cash."),
    ];
    const found = proseNames(logs, new Map());
    expect([...found.names.keys()]).toEqual(["john"]);
    expect(cited(found, "john")).toEqual(["03-09#L1", "03-12#L1"]);
  });

  it("a name the facts tag is theirs: never split", () => {
    const found = proseNames(twoJohns, new Map([["john", "John"]]), new Set(), undefined, new Set(), {
      fixed: new Set(["john"]),
    });
    expect(found.names.get("john")).toBe("John");
    expect(found.names.has("john-pryce")).toBe(false);
  });

  it("logs digested in two runs (years) decide as one run does", () => {
    const whole = proseNames(twoJohns, new Map());
    const parts = namesOf([digestProse(twoJohns.slice(0, 2)), digestProse(twoJohns.slice(2))], new Map());
    for (const key of ["john-pryce", "john-keeling"]) expect(cited(parts, key)).toEqual(cited(whole, key));
    expect(parts.unclear()).toEqual(whole.unclear());
  });
});

describe("two people sharing a first name and no surname, told apart by where from", () => {
  const logs = [
    log("2026-04-02", "Sue from the choir rang about Saturday's rota."),
    log("2026-04-05", "Dinner at Mike's. His wife Sue did a lamb thing, lovely."),
    log("2026-04-09", "Choir practice ran late, Sue sorted the music stands.\nSue and Mike are off to Crete in May."),
    log("2026-04-12", "Got a card from Sue from choir, she'd heard about the op."),
  ];
  it("a page for the one told by where from, the lines saying it or writing the word; bare lines to the kin word's", () => {
    const found = proseNames(logs, new Map());
    expect(found.names.get("sue-from-choir")).toBe("Sue-from-choir");
    expect(found.names.get("sue")).toBe("Sue");
    expect(cited(found, "sue-from-choir")).toEqual(["04-02#L1", "04-09#L1", "04-12#L1"]);
    expect(cited(found, "sue")).toEqual(["04-05#L1", "04-09#L2"]);
  });

  it("decides as one run when the logs are digested in two", () => {
    const whole = proseNames(logs, new Map());
    const parts = namesOf([digestProse(logs.slice(0, 2)), digestProse(logs.slice(2))], new Map());
    for (const key of ["sue", "sue-from-choir"]) expect(cited(parts, key)).toEqual(cited(whole, key));
  });

  it("tells no one apart by a descriptor written once, two descriptors, 'at' alone, or one beside the kin word", () => {
    const once = [logs[0]!, logs[1]!, log("2026-04-10", "Sue rang.")];
    expect([...proseNames(once, new Map()).names.keys()]).toEqual(["sue"]);
    const two = [
      log("2026-05-01", "My sister Kate came for lunch."),
      log("2026-05-02", "Kate from the gym says the pool is shut."),
      log("2026-05-03", "Kate from the office sent the slides."),
      log("2026-05-04", "Kate from gym again, spin class."),
      log("2026-05-05", "Kate from the office, same slides."),
    ];
    expect(proseNames(two, new Map()).split("kate")).toBeUndefined();
    const at = [
      log("2026-05-01", "My brother Tom is back."),
      log("2026-05-02", "Saw Tom at the pub."),
      log("2026-05-03", "Tom at the pub again, he's fine."),
    ];
    expect(proseNames(at, new Map()).split("tom")).toBeUndefined();
    const same = [
      log("2026-06-01", "Met my brother Tom from uni for a pint."),
      log("2026-06-02", "Tom from uni says hi."),
      log("2026-06-03", "Tom from uni again."),
    ];
    expect(proseNames(same, new Map()).split("tom")).toBeUndefined();
  });
});
