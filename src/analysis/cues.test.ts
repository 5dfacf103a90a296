import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CUE_LISTS, NEGATIVE_OUTCOME_WORDS } from "./cue-lists.js";
import { type CueHit, findCues, isForecast, isQuestion, switchSides, textPolarity } from "./cues.js";
import { DOUBTED_VERDICTS } from "./verdicts.js";

/** The plain reading: every cue, longest first, each taken out of the text once found. */
function everyCue(text: string): CueHit[] {
  const all = CUE_LISTS.flatMap((l) => l.cues.map((cue) => ({ kind: l.kind, cue }))).sort(
    (a, b) => b.cue.length - a.cue.length || (a.cue < b.cue ? -1 : a.cue > b.cue ? 1 : 0),
  );
  let rest = ` ${text} `;
  const hits: CueHit[] = [];
  for (const c of all) {
    const needle = ` ${c.cue} `;
    if (!rest.includes(needle)) continue;
    hits.push(c);
    rest = rest.split(needle).join(" ");
  }
  return hits;
}

describe("findCues", () => {
  // Words of the cue phrases and some filler, minus the negative-outcome words (whose
  // pairing with a negation is read first, as good news).
  // (and the verdicts a doubt can be about, whose pairing is read first as a hedge).
  // (and the words a "not" scopes over without negating: "not only", "not 100% sure").
  const outcome = new Set([
    ...[...NEGATIVE_OUTCOME_WORDS, ...DOUBTED_VERDICTS].flatMap((w) => w.split(" ")),
    ...["only", "just", "merely", "simply", "too", "quite", "that", "really", "entirely", "fully"],
    // (and the verbs of a moved date, read first with their object: "moved the cutover to March").
    ...["moved", "moves", "pushed", "bumped", "shifted"],
  ]);
  const words = [
    ...new Set(CUE_LISTS.flatMap((l) => l.cues.flatMap((c) => c.split(" ")))),
    "mara",
    "thinks",
    "the",
    "cutover",
    "march",
    "pricing",
  ].filter((w) => !outcome.has(w) && /^[a-z0-9'/-]+$/.test(w));

  it("finds the same cues as reading every cue of every list, in any sentence", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 14 }), (ws) => {
        const text = ws.join(" ");
        expect(findCues(text)).toEqual(everyCue(text));
        expect(findCues(text)).toEqual(everyCue(text)); // and again, from what it remembers
      }),
      { numRuns: 400 },
    );
  });

  it("reads a date moved with its thing named in between as a moved date", () => {
    expect(findCues("the clinic moved my appointment to Friday")).toContainEqual({ kind: "against", cue: "moved to" });
    expect(findCues("they pushed the opening back to June")).toContainEqual({ kind: "against", cue: "pushed back" });
    expect(findCues("moved the sofa to the hall")).toEqual([]);
  });

  it("reads 'not only … but also' as affirming, not negating, what follows", () => {
    for (const text of [
      "not only is Pulumi faster to write, it is also cheaper to run in CI",
      "Mara says the new onboarding is not just prettier but shorter",
      "Not merely OK - the Lisbon office is the best one we have",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(findCues(text), text).toEqual([]);
    }
    // A plain "not" still negates.
    expect(textPolarity("Pulumi is not faster to write")).toBe(-1);
  });

  it("reads a doubt graded by a degree word as a hedge, not as a negation", () => {
    for (const text of [
      "probably the dbt run drives most of the bill, but I'm not 100% sure",
      "the offsite in Porto is a good idea, though I'm not entirely convinced",
      "Not quite sure the migration pays for itself",
      "not fully confident we make the date",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(
        findCues(text).map((c) => c.kind),
        text,
      ).toContain("hedge");
      expect(
        findCues(text).every((c) => c.kind === "hedge"),
        text,
      ).toBe(true);
    }
  });

  it("reads a belief narrowed ('just not for logs') as a hedge, and praise by litotes ('not bad at all') as no negation", () => {
    for (const text of [
      "I still think Grafana is great, just not for logs",
      "the rota works, but not for the night shifts",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(
        findCues(text).map((c) => c.kind),
        text,
      ).toEqual(["hedge"]);
    }
    expect(textPolarity("the Lisbon office is not bad at all, keep it")).toBe(1);
    expect(textPolarity("Grafana is not for logs")).toBe(-1);
  });

  it("reads a negation that affirms as no negation", () => {
    for (const text of [
      "couldn't be happier with Grafana for ops",
      "never been more sure the four-day week keeps people",
      "can't imagine writing the ingest service in anything but Go",
      "we wouldn't change a thing about the Lisbon hub",
      "Lisbon? hard to argue against it",
      "the new rota: can't complain",
      "the train beats the coach to leeds, no contest",
      "no doubt about it, the old kettle was better",
      "renewing the railcard is a no brainer",
      "the 7:40 beats the 8:10 for a seat, not even close",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(findCues(text), text).toEqual([]);
    }
    expect(textPolarity("can't imagine the ingest service ever being fast")).toBe(-1);
    expect(textPolarity("the extension is not even close to finished")).toBe(-1);
  });

  it("reads a belief looked back on or going sour as giving way, and 'hasn't' as a negation", () => {
    expect(findCues("I used to think Go was right for ingest")).toEqual([{ kind: "reversal", cue: "used to think" }]);
    expect(findCues("souring on Grafana for ops")).toEqual([{ kind: "hedge", cue: "souring on" }]);
    expect(findCues("Mona has gone cold on the four-day week")).toEqual([{ kind: "reversal", cue: "gone cold on" }]);
    expect(findCues("Mona's gone a bit cold on the four-day week")).toEqual([
      { kind: "hedge", cue: "gone a bit cold on" },
    ]);
    expect(findCues("dunno if the four-day week is that fair tbh")).toEqual([{ kind: "hedge", cue: "dunno if" }]);
    expect(findCues("Mona has lost faith in the four-day week")).toEqual([{ kind: "reversal", cue: "lost faith in" }]);
    expect(textPolarity("retention hasn't moved since the four-day week")).toBe(-1);
    expect(textPolarity("the migration hasn't been an issue")).toBe(1);
  });

  it("reads the speaker's own softeners as hedges", () => {
    for (const text of [
      "on balance the offsite was worth it",
      "Porto is the better venue, I guess",
      "she'll probably stay on the team through Q4",
      "the new rota is more or less fair",
    ]) {
      expect(
        findCues(text).map((c) => c.kind),
        text,
      ).toEqual(["hedge"]);
    }
  });

  it("reads a doubted verdict as a hedge that keeps the belief, not as a reversal", () => {
    for (const text of [
      "not sure Kafka was wrong for us, the outbox fan-out is getting hairy",
      "Not convinced it was a bad idea after all.",
      "honestly not so sure the switch to Rust was a mistake",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(
        findCues(text).map((c) => c.kind),
        text,
      ).toContain("hedge");
    }
    // A plain verdict is still a reversal of the choice.
    expect(textPolarity("pretty sure Kafka was wrong for us")).toBe(-1);
  });

  it("reads doubt on the way in as a hedge, not a verdict", () => {
    for (const text of [
      "starting to doubt Kafka is worth it",
      "jury's still out on the pricing page",
      "not so sure anymore that Svelte fits the dashboard",
    ]) {
      expect(textPolarity(text), text).toBe(1);
      expect(
        findCues(text).map((c) => c.kind),
        text,
      ).toEqual(["hedge"]);
    }
  });

  it("reads a dismissal as a reversal and a negated worry as good news", () => {
    expect(findCues("Honestly the pricing thing was overblown.")).toEqual([{ kind: "reversal", cue: "overblown" }]);
    expect(findCues("No longer worried about the cutover")).toEqual([{ kind: "for", cue: "no longer worried" }]);
  });

  it("reads harm counted as none ('not one fall since', 'zero incidents') as good news, not a 'not'", () => {
    expect(findCues("not one single accident on the stairs since the rail went in")).toEqual([
      { kind: "for", cue: "not one single accident" },
    ]);
    expect(findCues("not a single complaint from the neighbours since")).toEqual([
      { kind: "for", cue: "not a single complaint" },
    ]);
    expect(findCues("zero incidents on the new route")).toEqual([{ kind: "for", cue: "zero incidents" }]);
    expect(findCues("not one of the new hires stayed")).toEqual([{ kind: "negation", cue: "not" }]);
  });

  it("reads a spoken no ('nah', 'nope') as a negation", () => {
    expect(findCues("library wifi dodgy? nah, fixed since monday")).toEqual([{ kind: "negation", cue: "nah" }]);
    expect(findCues("nope, still the best chippy in town")).toEqual([{ kind: "negation", cue: "nope" }]);
  });

  it("reads a verdict against a choice as the opposite of choosing it, with no 'not' in sight", () => {
    for (const text of [
      "Kafka was a mistake for the event bus.",
      "Kafka turned out to be the wrong choice for the event bus.",
      "Kafka was the wrong call, in hindsight too expensive.",
      "Kafka for the event bus was a bad idea.",
      "Kafka is overkill for the event bus.",
      "Regrets picking Kafka for the event bus.",
      "Kafka has been a disappointment for the event bus.",
      "Kafka was a disaster for the event bus.",
      "Kafka is too complex for the event bus.",
    ]) {
      expect(textPolarity(text), text).toBe(-1);
    }
    expect(textPolarity("Kafka is the right call for the event bus.")).toBe(1);
    expect(textPolarity("Kafka is still the right choice for the event bus.")).toBe(1);
    // A negated verdict is praise.
    expect(textPolarity("Kafka was not a mistake for the event bus.")).toBe(1);
    expect(textPolarity("Doesn't regret picking Kafka for the event bus.")).toBe(1);
  });
});

describe("isQuestion: a question asked with or without its '?'", () => {
  it("reads the word order of a question dictated or typed without a '?'", () => {
    for (const asked of [
      "should we switch the broadband provider or is that more hassle than its worth",
      "is it worth renewing the gym for another year",
      "um do we even need a second car",
      "so are they ever going to fix the lift",
      "how do we stop the cat getting into the shed",
      "can anyone actually tell the two brands apart",
      "is there any point keeping the landline",
      "anyone know if we still need the old router",
      "anybody tried the new bus app",
      "any idea why the boiler keeps cutting out",
    ]) {
      expect(isQuestion(asked), asked).toBe(true);
    }
  });

  it("reads a statement that starts with an auxiliary, or a question already answered, as no question", () => {
    for (const said of [
      "did it again, burnt the toast",
      "do it properly next time, the shelf is wonky",
      "would you believe it the lift is broken again",
      "have to say the new broadband is quick",
      "should have gone with the other provider",
      "is what it is",
      "the lift is broken again",
      "is the lift fixed? nope, still out",
      "anyone can see the new bus app is better",
    ]) {
      expect(isQuestion(said), said).toBe(false);
    }
    expect(isQuestion("is the lift fixed?")).toBe(true);
  });
});

describe("switchSides", () => {
  it("names what a switch gives up and what it takes, up to a preposition or a clause", () => {
    expect(switchSides("Switched the event bus from Kafka to Postgres.")).toEqual({ lost: "Kafka", kept: "Postgres" });
    expect(switchSides("replaced the 9:30 call with a Slack thread, finally")).toEqual({
      lost: "the 9:30 call",
      kept: "a Slack thread",
    });
    expect(switchSides("Moved the launch from March to April because of the audit")).toEqual({
      lost: "March",
      kept: "April",
    });
    expect(switchSides("Moving the team off Jira in Q3")).toEqual({ lost: "Jira" });
    expect(switchSides("Prefers tea over coffee in the morning")).toEqual({ lost: "coffee", kept: "tea" });
  });

  it("reads a comparison as taking its subject over what it is compared with", () => {
    expect(switchSides("Datadog is nicer than Grafana for ops, to be fair")).toEqual({
      lost: "Grafana",
      kept: "Datadog",
    });
    expect(switchSides("the Lisbon office is a lot cheaper to run than Porto")).toEqual({
      lost: "Porto",
      kept: "the Lisbon office",
    });
    expect(switchSides("Pulumi beats Terraform for our infra")).toEqual({ lost: "Terraform", kept: "Pulumi" });
    expect(switchSides("the parser error messages are much better now")).toBeUndefined();
  });

  it("finds nothing in a sentence without a switch", () => {
    expect(switchSides("Moving to Utrecht in June.")).toBeUndefined();
    expect(switchSides("Kafka is the right call for the event bus.")).toBeUndefined();
    expect(switchSides("Replaced")).toBeUndefined();
  });
});

describe("isForecast: a belief a moved date can bear on", () => {
  it.each([
    ["the kitchen refit will be done before the in-laws visit", true],
    ["we'll have the grant report in by the 30th", true],
    ["a September launch is doable", true],
    ["Dana can finish the audit in Q3", true],
    ["the weekly sync is a waste of everyone's morning", false],
    ["our landlord is hopeless with repairs", false],
    ["Figma is worth the money", false],
  ])("%s -> %s", (text, forecast) => {
    expect(isForecast(text)).toBe(forecast);
  });
});

describe("Indian English and spoken turns: 'I have one doubt whether', 'have come round to', 'less than we hoped'", () => {
  it("asks with 'a doubt whether', and states with 'no doubt'", () => {
    expect(isQuestion("I have a doubt whether the home insurance covers flood damage")).toBe(true);
    expect(isQuestion("we had one small doubt about the venue deposit")).toBe(true);
    expect(isQuestion("I have no doubt the venue deposit comes back")).toBe(false);
    expect(isQuestion("there is some doubt about the venue")).toBe(false);
  });
  it("reads 'have come round to X' as a turn, 'came round to ours' as a visit", () => {
    const kinds = (t: string) => findCues(t).map((c) => c.kind);
    expect(kinds("I've come round to oat milk in the end")).toContain("reversal");
    expect(kinds("Dad has come round to the electric car")).toContain("reversal");
    expect(kinds("she is slowly coming round to the idea of a gap year")).toContain("reversal");
    expect(kinds("Mum came round to ours for tea")).not.toContain("reversal");
  });
  it("reads 'less than we hoped' as an outcome against", () => {
    const kinds = (t: string) => findCues(t).map((c) => c.kind);
    expect(kinds("the car boot sale made £60, less than we hoped")).toContain("against");
    expect(kinds("turnout was lower than we expected")).toContain("against");
  });
});
