import { describe, expect, it } from "vitest";
import { coreNames, type ProseLog, scanLine, scanProse } from "./prose.js";
import { proseNames } from "./prose-names.js";

describe("names in a log's prose", () => {
  it.each([
    ["- **Mara** (10:02): can we move the sync?", ["Mara"]],
    ["**Tomasz:** fine by me", ["Tomasz"]],
    ["[09:14] Priya: pushed the fix", ["Priya"]],
    ["Björn (via Slack): out sick today", ["Björn"]],
    ["Note: bring the charger", undefined],
    ["User: what's on my calendar?", undefined],
    // A count's label, not a speaker; a note about someone is theirs.
    ["Attendance: 31, not bad for the first week back.", undefined],
    ["- Market: 40 jars gone by 11, £280.", undefined],
    ["Deposit: £801.92, she'll confirm", undefined],
    ["Rui: VAT filed. Refund expected ~EUR 420.", ["Rui"]],
    ["[10:02] Mara: 3 more to go", ["Mara"]],
  ])("reads the chat speaker of %j", (line, speakers) => {
    expect(scanLine(line, 1)?.k).toEqual(speakers);
  });

  it("reads a heading label and its list's items as labels, not speakers", () => {
    const speakers = (text: string) => scanProse(text).flatMap((l) => l.k ?? []);
    expect(speakers("Progress:\n- chem: redo moles\n- maths: paper 3")).toEqual([]);
    expect(speakers("Revision:\n- Chemistry: bonding\n- Maths: past paper 2\n\n- Maya: see you at 4")).toEqual([
      "Maya",
    ]);
    // A chat: a speaker on line after line, with something said.
    expect(speakers("Mara: can we move the sync?\nTomasz: fine by me")).toEqual(["Mara", "Tomasz"]);
    const logs: ProseLog[] = ["2026-01-14", "2026-02-12", "2026-02-19"].map((date) => ({
      path: `memory/${date}.md`,
      date,
      lines: scanProse(
        "Rained all day.\nProgress:\n- Maths: paper 2, Ayo helped\n- French: vocab\n\nProgress is slow.",
      ),
    }));
    expect([...proseNames(logs, new Map()).names.keys()]).toEqual(["ayo"]);
  });

  it("tells names inside a sentence from capitalised sentence starters", () => {
    const l = scanLine("Booked the room. Then asked Mara and @Jonas about the API review on Friday.", 3)!;
    expect(l.n).toEqual(["Mara"]);
    expect(l.a).toEqual(["Jonas"]);
    // "Then" is a stop word: not even a candidate.
    expect(l.s).toEqual(["Booked"]);
  });

  it("counts a two-word name once, by its first word, and no weekday in the plural", () => {
    const names = (text: string) => {
      const l = scanLine(text, 1);
      return [...(l?.n ?? []), ...(l?.s ?? [])];
    };
    expect(names("Kickoff w/ Hollow Oak today, Priya Raman was there")).toEqual(["Hollow", "Priya", "Kickoff"]);
    expect(names("Dr Okafor discharged me! No more Tuesdays.")).toEqual(["Okafor"]);
    expect(names("Called Ben, then met Mara's Team about it")).toEqual(["Ben", "Mara", "Called"]);
  });
  it("gives no name to a product written in camel case, but keeps Mc/Mac/De names", () => {
    const l = scanLine("exported the slides from PowerPoint, sent them to McKay and DeShawn over WhatsApp", 1)!;
    expect(l.n).toEqual(["McKay", "DeShawn"]);
  });

  it("reads the writer's mum or dad written in lower case as a weak name, never someone else's", () => {
    const weak = (text: string) => scanLine(text, 1)?.s ?? [];
    expect(weak("mum came along and sat at the back")).toEqual(["Mum"]);
    expect(weak("Afternoon: took mother to the eye clinic")).toContain("Mother");
    expect(weak("Dave did a roast, my mum had seconds")).toContain("Mum");
    expect(weak("mother's cataract appointment confirmed")).toEqual(["Mother"]);
    for (const text of ["Femi's mum came to listen", "her dad rang", "the mother of the bride", "a new mum joined"])
      expect(weak(text), text).not.toEqual(expect.arrayContaining(["Mum", "Dad", "Mother"]));
    expect(weak("my mother-in-law and my dad-to-be")).not.toEqual(expect.arrayContaining(["Mother"]));
    expect(weak("my mother-in-law and my dad-to-be")).not.toEqual(expect.arrayContaining(["Dad"]));
  });

  it("notes the surname after a personal title", () => {
    expect(scanLine("ran into Mrs. Oyelaran and Dr Ferreira-Lima at the bus stop, with Prof Tan", 1)!.t).toEqual([
      "Oyelaran",
      "Ferreira-Lima",
      "Tan",
    ]);
    expect(scanLine("Miss Honey read to Matilda", 1)!.t).toEqual(["Honey"]);
  });

  it('takes "Miss" for a title like "Mr", no name of its own nor the first word of one', () => {
    for (const text of ["Miss Patel moved my seat", "essay plan for Miss Patel. Due Thurs."]) {
      const l = scanLine(text, 1)!;
      expect([...(l.n ?? []), ...(l.s ?? [])], text).not.toContain("Miss");
      expect(l.r ?? [], text).toEqual([]);
      expect(l.t, text).toEqual(["Patel"]);
    }
  });

  it("gives no name to a numbered label, a make after an article, or a table cell's label", () => {
    const names = (text: string) => {
      const l = scanLine(text, 1);
      return { n: l?.n ?? [], s: l?.s ?? [] };
    };
    // A word before a number labels a numbered thing; a count or a time after a name does not.
    expect(names("Left the parcel in Unit 7B, then Gate 12's barrier stuck again").n).toEqual([]);
    expect(names("Swapped shifts with Carmen 3 times this month").n).toEqual(["Carmen"]);
    expect(names("drinks with Ines 7:30 at the Anchor").n).toEqual(["Ines", "Anchor"]);
    // "a"/"an" before a capitalised word: a make or a kind, not someone.
    expect(names("bought an Aga off Marketplace and a 1998 Land Rover from Theo").n).toEqual(["Marketplace", "Theo"]);
    // A table cell starts like a heading: its first word is weak, as at a sentence start.
    expect(names("| Electric | 2210 | read by Yusuf |")).toEqual({ n: ["Yusuf"], s: ["Electric"] });
  });

  it("counts a tally's names as weakly as a sentence's first word; one word's numbers stay labels", () => {
    // "Maya 2, Nadia 1": each a name the logs may know (a page then cites the line), none a page of its own.
    expect(scanLine("Scorers (Maya 2, Nadia 1)", 1)?.s).toEqual(["Scorers", "Maya", "Nadia"]);
    expect(scanLine("Pens in training: Lou 3, Nadia 2 and Kat 0, she skied them all", 1)?.s).toEqual([
      "Pens",
      "Lou",
      "Nadia",
      "Kat",
    ]);
    expect(scanLine("Flat 4, Flat 5 and Flat 6 all passed", 1)).toBeUndefined();
    expect(scanLine("Readings went to Gas 04417, Water 3381 today", 1)?.s).toEqual(["Readings"]);
  });

  it("gives no name to a language or nationality, capitalised or not", () => {
    const l = scanLine("The notes are in German; I added an English summary for Priya.", 1)!;
    expect(l.n).toEqual(["Priya"]);
    expect(l.s).toBeUndefined();
  });

  it("counts a sentence opener that phones, writes or owns something as a name, not a contraction", () => {
    // A verb never takes 's, and "rang"/"wrote" after a capitalised opener is someone doing it.
    expect(scanLine("Rosemary's group again on Tuesday.", 1)?.n).toEqual(["Rosemary"]);
    expect(scanLine("Nadia rang back about the invoice. Good.", 1)?.n).toEqual(["Nadia"]);
    expect(scanLine("Mara wrote the notes in German.", 1)?.n).toEqual(["Mara"]);
    for (const t of ["Let's see how it goes.", "Everyone's tired today.", "Tonight's plan: nothing."])
      expect(scanLine(t, 1)?.n, t).toBeUndefined();
    // A verb opener is still a sentence start only.
    expect(scanLine("Planted the beans.", 1)?.n).toBeUndefined();
  });

  it("skips Retain sections, headings, code and links' targets", () => {
    const text = [
      "# Tuesday with Noor",
      "Met Kasia at the office.",
      "```",
      "const Foo = Bar;",
      "```",
      "see [the doc](https://x.org/Hidden/Page) from Olek",
      "## Retain",
      "- W @Mara: Back from Lisbon.",
      "## Later",
      "called Ines",
    ].join("\n");
    const lines = scanProse(text);
    expect(lines.map((l) => [l.line, ...(l.n ?? [])])).toEqual([
      [2, "Kasia"],
      [6, "Olek"],
      [10, "Ines"],
    ]);
  });

  it("gives a page to a name recurring in two logs, never to a sentence starter alone", () => {
    const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });
    const logs = [
      log("memory/2026-03-01.md", "Shipped it. Lunch with Kasia.\nOlek: ok"),
      log("memory/2026-03-02.md", "Shipped the docs. Coffee with Kasia again.\nCalled Ines."),
      log("memory/2026-03-03.md", "Olek: late today\nShipped nothing."),
    ];
    const { names, linesOf } = proseNames(logs, new Map([["ines", "Ines"]]));
    expect([...names.values()].sort()).toEqual(["Ines", "Kasia", "Olek"]);
    expect(names.has("shipped")).toBe(false);
    expect(linesOf("kasia").map((m) => `${m.date}#${m.line}`)).toEqual(["2026-03-01#1", "2026-03-02#1"]);
    // A known entity counts in a sentence start too ("Called Ines." is a start: "Ines" is mid).
    expect(linesOf("ines").length).toBe(1);
  });

  it("reads the items of a list started after a colon as sentence starts, and a list of names as names", () => {
    const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });
    const day = "Grocery list: Milk, Eggs, Bread and Butter.\nLunch with Kasia, Olek and Ines, then the Wifi died.";
    const logs = [log("memory/2026-05-02.md", day), log("memory/2026-05-03.md", day)];
    const { names } = proseNames(logs, new Map());
    expect([...names.values()].sort()).toEqual(["Ines", "Kasia", "Olek", "Wifi"]);
  });
});

describe("a capitalised word after a sentence start", () => {
  const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });

  it("is a surname when it never stands alone: the page is the first name's, not the surname's", () => {
    const logs = [
      log("memory/2026-04-02.md", "Call went fine (Dana Whitfield ran it).\nDana said she'd follow up."),
      log("memory/2026-04-09.md", "Second call. Present: Dana Whitfield, me and two engineers."),
    ];
    const { names, linesOf } = proseNames(logs, new Map());
    expect([...names.values()]).toEqual(["Dana"]);
    expect(linesOf("dana").map((m) => `${m.date}#${m.line}`)).toEqual(["2026-04-02#1", "2026-04-02#2", "2026-04-09#1"]);
  });

  it("is a name of its own when it is seen alone too (a verb opened the sentence)", () => {
    const logs = [
      log("memory/2026-04-02.md", "Rang Tobias about the lease."),
      log("memory/2026-04-05.md", "Lunch with Tobias."),
      log("memory/2026-04-09.md", "Rang Tobias again, no answer."),
    ];
    expect([...proseNames(logs, new Map()).names.values()]).toEqual(["Tobias"]);
  });
});

it("gives a title or kin word before a name no page of its own", () => {
  const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });
  const logs = [
    log("memory/2026-06-01.md", "Drove up with Aunt Bisi. Offer came in! Senior Engineer, remote."),
    log("memory/2026-06-08.md", "Aunt Bisi phoned. Role title is Senior Engineer after all."),
  ];
  expect([...proseNames(logs, new Map()).names.values()]).toEqual(["Bisi"]);
});

describe("names of more than one word, and words that only look like names", () => {
  const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });

  it("names a place by all its words when its first word never stands alone", () => {
    const logs = [
      log("memory/2026-05-04.md", "Dropped the twins at Oak Meadow early, then coffee at Little Fern."),
      log("memory/2026-05-06.md", "Oak Meadow called: nits again. Met Kofi at Little Fern after."),
      log("memory/2026-05-09.md", "Pickup at Oak Meadow was chaos. Kofi says hi."),
    ];
    const { names, linesOf } = proseNames(logs, new Map());
    expect([...names.values()].sort()).toEqual(["Kofi", "Little-Fern", "Oak-Meadow"]);
    expect(linesOf("oak-meadow").map((m) => m.date)).toEqual(["2026-05-04", "2026-05-06", "2026-05-09"]);
  });

  it("reads on past an abbreviation's dot: St. Jude's is one name, Dr. Amadi no sentence start", () => {
    const l = scanLine("Night at St. Jude's again, Dr. Amadi on call.", 1)!;
    expect(l.r).toEqual([["St", "Jude"]]);
    expect(l.n).toEqual(["St", "Amadi"]);
    expect(l.s).toBeUndefined();
  });

  it("gives no name to a ward after a number, a short month or day, or a holiday", () => {
    const names = (text: string) => {
      const l = scanLine(text, 1);
      return [...(l?.n ?? []), ...(l?.s ?? [])];
    };
    expect(names("Floated to 6 North tonight, back on 3 East Thurs")).toEqual(["Floated"]);
    expect(names("due by Feb 3, and off over Easter and Thanksgiving w Ade")).toEqual(["Ade"]);
  });

  it('counts a sentence opener that speaks ("Gloria says") as a name', () => {
    const logs = [
      log("memory/2026-05-04.md", "Short night. Ngozi says the rota is out."),
      log("memory/2026-05-11.md", "Ngozi told me to swap with Tunji."),
    ];
    expect([...proseNames(logs, new Map()).names.values()]).toEqual(["Ngozi"]);
  });

  it('gives no page to a topic label before a colon ("Team: ...", "Family: ...") in MEMORY.md and the logs', () => {
    const core = new Set(
      coreNames(scanProse("- Team: Priya Raman (staff engineer), Jonas Berg.\n- Family: wife Ana, kids Leo and Mia.")),
    );
    const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });
    const logs = [
      log("memory/2026-03-15.md", "- Team: Noor onboarded; async updates are now the default.\n- Lunch with Priya."),
      log("memory/2026-03-16.md", "Family: dinner at Ana's parents. Health: knee better."),
    ];
    const names = [...proseNames(logs, new Map(), new Set([...core].map((n) => n.toLowerCase()))).names.values()];
    expect(names).toEqual(expect.arrayContaining(["Priya", "Ana"]));
    for (const label of ["Team", "Family", "Health", "Lunch"]) expect(names).not.toContain(label);
  });

  it('reads "the Castle" in prose as the entity @The-Castle, not a page of its own', () => {
    const log = (path: string, text: string): ProseLog => ({ path, date: path.slice(7, 17), lines: scanProse(text) });
    const logs = [
      log("memory/2026-03-06.md", "Short day: contractor call for the Castle at 14:00, then off."),
      log("memory/2026-03-10.md", "Zoë came by the Castle and approved the roof."),
    ];
    const { names, linesOf } = proseNames(logs, new Map([["the-castle", "The-Castle"]]));
    expect([...names.keys()]).not.toContain("castle");
    expect(linesOf("the-castle").map((l) => l.path)).toEqual(["memory/2026-03-06.md", "memory/2026-03-10.md"]);
  });

  it("reads someone else's partner as a kin word on the name, never the writer's own", () => {
    const kin = (text: string) => scanLine(text, 1)?.b ?? [];
    expect(kin("Came round with Idris's girlfriend Jess for tea")).toEqual(["Jess"]);
    expect(kin("Lent the ladder to Pat, Dave's wife, again")).toEqual(["Pat"]);
    expect(kin("Kemal (Ayla's husband) fixed the gate")).toEqual(["Kemal"]);
    expect(kin("Sat with his fiancée Noor at the back")).toEqual(["Noor"]);
    expect(kin("My wife Ana made soup")).toEqual([]);
  });

  it("notes where the writer knows a first name from", () => {
    expect(scanLine("Sue from the choir rang; Ravi at the allotment waved", 1)!.g).toEqual([
      ["Sue", "choir", "from"],
      ["Ravi", "allotment", "at"],
    ]);
    expect(scanLine("Kwame from tomorrow is on nights, from the 3rd", 1)?.g).toBeUndefined();
  });

  it("keeps a surname MEMORY.md writes after a first name out of the core names", () => {
    const core = scanProse("- Charge nurse: Denise Park.\n- Mostly nights, with Omar.");
    expect(coreNames(core)).toEqual(["Charge", "Denise", "Omar", "Mostly"]);
  });
});
