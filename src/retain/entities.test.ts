import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  entityFileStem,
  entityKey,
  entitySpellings,
  findMentions,
  MAX_ENTITY_STEM_BYTES,
  respell,
  respellAll,
} from "./entities.js";
import { parseFactLine } from "./line.js";
import { parseRetain } from "./parse.js";

const P = "memory/2026-03-04.md";
const entitiesOf = (line: string) => {
  const r = parseFactLine(line);
  if (!r.ok) throw new Error(r.reason);
  return [...r.value.prefixEntities, ...r.value.mentions];
};
const reasonOf = (line: string) => {
  const r = parseFactLine(line);
  return r.ok ? undefined : r.reason;
};

describe("entity grammar", () => {
  it("keeps dots, apostrophes, ++ and # inside names, not at a sentence's end or a possessive", () => {
    expect(entitiesOf("B: Upgraded @Node.js to 22 and told @O'Brien.")).toEqual(["Node.js", "O'Brien"]);
    expect(entitiesOf("W: We moved to @Node.js.")).toEqual(["Node.js"]);
    expect(entitiesOf("W: @Peter's flight lands at 9, @Peter. @O'Brien's too")).toEqual(["Peter", "O'Brien"]);
    expect(entitiesOf("O(c=0.6) @C++: faster than @C#, says @F#'s fan")).toEqual(["C++", "C#", "F#"]);
    expect(entitiesOf("W @Node.js @O’Brien: both")).toEqual(["Node.js", "O’Brien"]);
  });

  it("reads `@C++` and `@C#` as two entities, never one", () => {
    expect(new Set(entitiesOf("S: @C++ vs @C#")).size).toBe(2);
    expect(entityFileStem("C++")).not.toBe(entityFileStem("C#"));
  });

  it("does not take package names and handles inline, and refuses them before the colon", () => {
    expect(entitiesOf("B: bumped @types/node and pinged @foo@bar")).toEqual([]);
    expect(reasonOf("W @a/b: text")).toMatch(/invalid entity "@a\/b" before the colon: "\/" is not allowed/);
    expect(reasonOf("W @foo@bar: text")).toMatch(/invalid entity "@foo@bar" before the colon: "@" is not allowed/);
  });

  it("refuses a name glued to other characters instead of cutting it", () => {
    expect(reasonOf("W: lunch with @Peter&Mara")).toMatch(/invalid entity "@Peter&Mara": "&" is not allowed/);
    expect(reasonOf("W: @C#2 is not a language")).toMatch(/invalid entity "@C#2"/);
    expect(reasonOf("W @Peter's: x")).toMatch(/invalid entity "@Peter's" before the colon/);
  });

  it("reports a rejected entity as a diagnostic with file:line, not a fact", () => {
    const text = "# Day\n\n## Retain\n- W @Peter: fine\n- W @a/b: slash\n- S: with @x=1 glued\n";
    const r = parseRetain(P, text);
    expect(r.facts.map((f) => f.source.line)).toEqual([4]);
    expect(r.diagnostics.map((d) => `${d.path}:${d.line}`)).toEqual([`${P}:5`, `${P}:6`]);
  });
});

describe("control characters (item 8)", () => {
  it.each([
    ["\u0000", "U+0000"],
    ["\u001b[31m", "U+001B"],
    ["\u0007", "U+0007"],
    ["\u007f", "U+007F"],
  ])("a fact with %j is a diagnostic naming %s", (ch, code) => {
    const r = parseRetain(P, `## Retain\n- W @Peter: bad ${ch} byte\n- W @Mara: fine\tand tabbed\n`);
    expect(r.diagnostics).toEqual([
      { path: P, line: 2, reason: expect.stringContaining(`contains control character ${code}`) },
    ]);
    expect(r.facts.map((f) => f.content)).toEqual(["fine\tand tabbed"]);
  });
});

describe("entity page file names", () => {
  it("are the name when portable", () => {
    expect(entityFileStem("The-Castle")).toBe("The-Castle");
    expect(entityFileStem("Node.js")).toBe("Node.js");
    expect(entityFileStem("张伟")).toBe("张伟");
  });

  it("give Windows device names a safe, stable name", () => {
    for (const name of ["CON", "nul", "Aux", "COM1", "lpt9", "PRN", "CON.txt", "nul.js"]) {
      const stem = entityFileStem(name);
      expect(stem.split(".")[0]!.toUpperCase()).not.toMatch(/^(CON|PRN|AUX|NUL|COM\d|LPT\d)$/);
      expect(stem).toBe(entityFileStem(name));
    }
    expect(entityFileStem("CONTOSO")).toBe("CONTOSO");
  });

  it("cut long names to the byte limit with a hash, so 300-byte names neither crash nor collide", () => {
    const a = "Ä".repeat(150);
    const b = `${"Ä".repeat(149)}B`;
    for (const s of [entityFileStem(a), entityFileStem(b)]) {
      expect(Buffer.byteLength(s)).toBeLessThanOrEqual(MAX_ENTITY_STEM_BYTES);
      expect(s).toMatch(/~[0-9a-f]{10}$/);
    }
    expect(entityFileStem(a)).not.toBe(entityFileStem(b));
  });

  it("choose one spelling per entity: an existing page's, else the first written", () => {
    const facts = [{ entities: ["PETER"] }, { entities: ["peter"] }, { entities: ["peter", "Mara"] }];
    // The first, not the most frequent: the page a first night made keeps it, so one full run must too.
    expect(entitySpellings(facts).get(entityKey("Peter"))).toBe("PETER");
    // A spelling the prose wrote before the first fact ("Peter came by") names the page.
    expect(entitySpellings(facts, [], new Map([["peter", "Peter"]])).get(entityKey("PETER"))).toBe("Peter");
    expect(entitySpellings(facts, ["peter"], new Map([["peter", "Peter"]])).get(entityKey("PETER"))).toBe("peter");
    expect(entitySpellings(facts, ["Peter", "Mara"]).get(entityKey("PETER"))).toBe("Peter");
    expect(entitySpellings([...facts, { entities: ["Peter"] }], ["Peter"]).get(entityKey("peter"))).toBe("Peter");
    expect(entitySpellings([{ entities: ["Zoë"] }, { entities: ["ZOË"] }]).get(entityKey("zoë"))).toBe("Zoë");
  });
});

// Arbitrary names: the grammar's own characters plus everything a file system dislikes.
const nameChar = fc.oneof(
  fc.constantFrom("a", "Z", "ß", "İ", "ǅ", "Σ", "ς", "é", "e\u0301", "张", "7", "_", "-", ".", "'", "+", "#"),
  fc.constantFrom("/", "\\", ":", "*", "?", '"', "<", ">", "|", " ", "~", "\u0000", "😀"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);
const anyName = fc.oneof(
  fc.array(nameChar, { minLength: 1, maxLength: 40 }).map((a) => a.join("")),
  fc.array(nameChar, { minLength: 100, maxLength: 200 }).map((a) => a.join("")),
  fc.constantFrom("CON", "con", "Nul.txt", "COM3", "lpt1.md", "AUX", "prn"),
);

describe("entity names, properties", () => {
  // Case variants, repeats within a fact, names with no spelling: one spelling per key, each name once, order kept.
  it("respellAll gives each item's respelled names (an unchanged item is the item itself)", () => {
    const name = fc.constantFrom("Peter", "peter", "PETER", "Mara", "mara", "Zoë", "ZOË", "Wei", "ledger-sync");
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 4 }), { maxLength: 12 }), fc.boolean(), (lists, partial) => {
        const items = lists.map((entities) => ({ entities }));
        const spellings = entitySpellings(partial ? items.slice(0, items.length >> 1) : items);
        const out = respellAll(items, spellings);
        out.forEach((item, i) => {
          const want = [...new Set(items[i]!.entities.map((e) => spellings.get(entityKey(e)) ?? e))];
          expect(item.entities).toEqual(want);
          expect(respell(items[i]!.entities, spellings)).toEqual(want);
          if (want.length === items[i]!.entities.length && want.every((e, j) => e === items[i]!.entities[j]))
            expect(item).toBe(items[i]);
        });
      }),
    );
  });

  it("never give a file name that is empty, too long, reserved on Windows or has a path separator", () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const stem = entityFileStem(name);
        expect(stem.length).toBeGreaterThan(0);
        expect(Buffer.byteLength(stem, "utf8")).toBeLessThanOrEqual(MAX_ENTITY_STEM_BYTES);
        expect(stem).not.toMatch(/^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?$/i);
        expect([...stem].some((c) => '/\\:*?"<>|'.includes(c) || c.charCodeAt(0) < 0x20)).toBe(false);
        expect(stem).not.toMatch(/^\.|\.$/);
        expect(entityFileStem(stem)).toBe(stem); // a page's own stem maps to the page
      }),
      { numRuns: 400 },
    );
  });

  it("map case variants to one key, and to file names equal but for case", () => {
    const hash = (s: string) => /~[0-9a-f]{10}$/.exec(s)?.[0];
    fc.assert(
      fc.property(anyName, (name) => {
        const stem = entityFileStem(name);
        for (const v of [name.toUpperCase(), name.toLowerCase()]) {
          expect(entityKey(v)).toBe(entityKey(name));
          const other = entityFileStem(v);
          // A cut name keeps the key's hash; a whole one differs only in case.
          if (hash(stem) && hash(other)) expect(hash(other)).toBe(hash(stem));
          else if (!hash(stem) && !hash(other)) expect(entityKey(other)).toBe(entityKey(stem));
        }
      }),
      { numRuns: 400 },
    );
  });

  it("an entity before the colon is taken whole or refused with file:line, never cut", () => {
    fc.assert(
      fc.property(fc.array(nameChar, { minLength: 1, maxLength: 30 }), (chars) => {
        const token = chars.join("").replace(/[\s,:\r\n\u2028\u2029]/g, "x");
        const r = parseRetain(P, `## Retain\n- W @${token}: text\n`);
        expect(r.facts.length + r.diagnostics.length).toBe(1);
        if (r.facts[0]) expect(r.facts[0].entities).toEqual([token.normalize("NFC")]);
        else
          expect(r.diagnostics[0]).toEqual({
            path: P,
            line: 2,
            reason: expect.stringMatching(/^(invalid entity|contains control)/),
          });
      }),
      { numRuns: 400 },
    );
  });

  it("every inline mention found is a whole name: the text right after it ends the word", () => {
    fc.assert(
      fc.property(fc.array(nameChar, { maxLength: 30 }), (chars) => {
        const text = `x @${chars.join("")} y`;
        const r = parseFactLine(`W: ${text}`);
        if (!r.ok) return; // malformed mentions are diagnostics, checked above
        for (const name of r.value.mentions) {
          expect(name.length).toBeGreaterThan(0);
          expect(findMentions(`@${name}`)).toEqual([name]);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("findMentions: the one @mention rule for any text (recall's windows, reflect's prose)", () => {
  it("normalises to NFC, skips e-mails, packages and malformed mentions, keeps the rest", () => {
    const decomposed = "met @Zoe\u0308 and @Mara.";
    expect(findMentions(decomposed)).toEqual(["Zo\u00eb", "Mara"]);
    expect(findMentions("mail mara@example.com, bump @types/node, ask @Peter&Mara then @Wei")).toEqual(["Wei"]);
    expect(findMentions("@C++ and @C# with @ledger-sync's owner")).toEqual(["C++", "C#", "ledger-sync"]);
  });
});
