import { describe, expect, it } from "vitest";
import { findCues } from "../analysis/cues.js";
import { parseRetain } from "../retain/index.js";
import type { Fact } from "../retain/types.js";
import { heuristicJudge, judgePair, judgeSync } from "./judge.js";
import { negationCount } from "./text.js";
import { KnownNames } from "./topic.js";

/** One Retain line as a person writes it, parsed the way reflect sees it. */
function line(text: string, date = "2026-03-12"): Fact {
  const { facts, diagnostics } = parseRetain(`memory/${date}.md`, `# ${date}\n\n## Retain\n${text}\n`);
  expect(diagnostics).toEqual([]);
  return facts[0]!;
}

const known = new KnownNames([
  ["Mara", "2026-03-01"],
  ["ledger-sync", "2026-03-01"],
  ["Tomasz", "2026-03-01"],
]);

// Mara's belief, first stated on 03-03 at 0.8.
const belief = {
  statement: "Thinks ledger-sync will cut over by the end of March.",
  entities: ["Mara"],
  confidence: 0.8,
};
const judge = (text: string) => judgeSync(belief, line(text), known);

describe("stance rules: a restatement by the same holder", () => {
  it.each([
    // hedges and reversals in the words people use
    ["- O @Mara: puts a March cutover for ledger-sync at fifty-fifty.", "contradict"],
    ["- O @Mara: Still hopes ledger-sync cuts over by the 31st but calls it tight.", "contradict"],
    ["- O @Mara: no longer believes ledger-sync could have shipped in March", "contradict"],
    ["- O @Mara: has changed her mind about the March cutover of ledger-sync.", "contradict"],
    ["- O @Mara: accepted the new date for the ledger-sync cutover", "contradict"],
    ["- O @Mara: is sceptical that ledger-sync makes March at all", "contradict"],
    ["- O @Mara: says a March cutover for ledger-sync was always wishful thinking", "contradict"],
    ["- O @Mara: doesn't think ledger-sync cuts over in March any more", "contradict"],
    ["- O(c=0.5) @Mara: ledger-sync cutover by end of March, give or take.", "contradict"],
    ["- O(c=0.35) @Mara: March for the ledger-sync cutover.", "contradict"],
    // a dismissal, even stated firmly: the firmness is in the opposite belief
    ["- O(c=0.8) @Mara: the worry about a March cutover for ledger-sync was overblown", "contradict"],
    ["- O(c=0.9) @Mara: the ledger-sync March cutover thing turned out to be a false alarm", "contradict"],
    ["- O @Mara: rethinking the March cutover for ledger-sync, honestly it could go either way", "contradict"],
    // held again or firmer
    ["- O @Mara: still thinks ledger-sync cuts over in March.", "support"],
    ["- O(c=0.95) @Mara: more certain than ever the ledger-sync cutover lands in March", "support"],
    ["- O(c=0.8) @Mara: repeats that the ledger-sync cutover happens in March.", "support"],
    // negatives of negatives: good news, not a reversal
    ["- O @Mara: says the ledger-sync cutover is no longer blocked, March it is.", "support"],
    ["- O @Mara: not worried about the March cutover of ledger-sync", "support"],
  ])("%s -> %s", (text, stance) => {
    expect(judge(text).stance).toBe(stance);
  });

  it("reads a restatement's own c= as a direct reading, weighted by the gap", () => {
    const slight = judge("- O(c=0.7) @Mara: ledger-sync cutover in March, probably.");
    const big = judge("- O(c=0.4) @Mara: ledger-sync cutover in March? maybe.");
    expect(slight).toMatchObject({ stance: "contradict", reason: "restated at 0.70 < 0.80" });
    expect(big.stance).toBe("contradict");
    expect(big.strength).toBeGreaterThan(slight.strength);
    expect(judge("- O(c=0.82) @Mara: ledger-sync cuts over in March.")).toMatchObject({ stance: "support" });
  });

  it("names the cue it went by", () => {
    expect(judge("- O @Mara: no longer believes in a March cutover for ledger-sync").reason).toBe('cue "no longer"');
    expect(judge("- O @Mara: puts the ledger-sync March cutover at fifty-fifty").reason).toBe('cue "fifty-fifty"');
  });

  it("reads a hedge as weaker than a reversal", () => {
    const hedge = judge("- O @Mara: hoping ledger-sync still cuts over in March");
    const reversal = judge("- O @Mara: gave up on a March cutover for ledger-sync");
    expect(hedge.stance).toBe("contradict");
    expect(reversal.stance).toBe("contradict");
    expect(reversal.strength).toBeGreaterThan(hedge.strength);
  });
});

describe("stance rules: a restatement said tentatively, or a turn said with a hedge", () => {
  const tram = { statement: "the night tram is the safest way home", entities: ["Ola"], confidence: 0.7 };
  const judged = (text: string) => judgeSync(tram, line(text), known);

  it("moves less for a view held tentatively than for one held again", () => {
    const held = judged("- O @Ola: the night tram is still the safest way home");
    const tentative = judged("- O @Ola: starting to think the night tram is the safest way home, honestly");
    expect(held.stance).toBe("support");
    expect(tentative.stance).toBe("support");
    expect(tentative.strength).toBeLessThan(held.strength);
  });

  it("moves less for a turn said with a hedge than for a flat one", () => {
    const flat = judged("- O @Ola: the night tram is not safe at all after midnight");
    const hedged = judged("- O @Ola: not 100% sure, but the night tram might not be that safe after midnight");
    expect(flat.stance).toBe("contradict");
    expect(hedged.stance).toBe("contradict");
    expect(hedged.strength).toBeLessThan(flat.strength);
  });

  it("reads a comparison that favours the other side as a turn, and a take-back of that turn as the belief held", () => {
    const pref = { statement: "Kotlin is nicer than Java for the Android app", entities: ["Ola"], confidence: 0.7 };
    expect(
      judgeSync(pref, line("- O @Ola: Java might be less painful than Kotlin for the Android app"), known),
    ).toMatchObject({
      stance: "contradict",
    });
    expect(
      judgeSync(pref, line("- O @Ola: I was wrong about Java for the Android app, Kotlin wins again"), known),
    ).toMatchObject({ stance: "support" });
    // A take-back of the belief itself still takes it back.
    expect(
      judgeSync(pref, line("- O @Ola: I was wrong about Kotlin for the Android app, Java is fine"), known),
    ).toMatchObject({ stance: "contradict" });
  });
});

describe("stance rules: a fact that says nothing against a complaint", () => {
  it("leaves a complaint alone when a fact about its subject judges nothing, and not when it does", () => {
    const mesh = { statement: "the service mesh is overkill for four services", entities: ["Ola"], confidence: 0.7 };
    expect(judgeSync(mesh, line("- W @Ola: bumped the service mesh to 2.3 on four services"), known).stance).not.toBe(
      "contradict",
    );
    expect(
      judgeSync(mesh, line("- W @Ola: the service mesh saved us on four services during the outage, great call"), known)
        .stance,
    ).toBe("contradict");
  });

  it("reads 'can't imagine X anywhere but Y' as holding the belief", () => {
    const school = { statement: "the Montessori school is right for Ben", entities: ["Ola"], confidence: 0.7 };
    expect(
      judgeSync(school, line("- O @Ola: can't imagine Ben anywhere but the Montessori school"), known).stance,
    ).toBe("support");
  });
});

describe("stance rules: a concession, and a complaint in other words", () => {
  const vet = { statement: "the vet on Calle Mayor is too expensive", entities: ["Ola"], confidence: 0.7 };
  const judged = (text: string) => judgeSync(vet, line(text), known);
  it("reads 'not cheap but worth it' by its last word, and 'costs a fortune' as the same complaint", () => {
    expect(judged("- O @Ola: the vet on Calle Mayor isn't cheap but honestly worth it").stance).toBe("contradict");
    expect(judged("- O @Ola: the Calle Mayor vet charges a fortune for a check-up").stance).toBe("support");
    // A "but" clause with a subject of its own is not the last word on this one.
    expect(judged("- O @Ola: the vet on Calle Mayor isn't cheap, but the one in Gracia is fine").stance).toBe(
      "support",
    );
  });
});

describe("stance rules: outcomes about the topic, tagged with the project", () => {
  it.each([
    ["- W @ledger-sync: Cutover moved to April 14 after the bank's freeze.", "contradict"],
    ["- W @ledger-sync: the March cutover slipped two weeks", "contradict"],
    ["- W @ledger-sync: cutover pushed back, new target mid-April", "contradict"],
    ["- W @ledger-sync: Cutover rehearsal failed; March is off.", "contradict"],
    ["- W @ledger-sync: cutover confirmed for March 28, runbook signed off", "support"],
    ["- W @ledger-sync: on track for the March cutover.", "support"],
    ["- W @ledger-sync: cutover no longer blocked by the vendor", "support"],
    ["- W @Tomasz: rewrote the billing exporter over the weekend.", "unrelated"],
    ["- W @ledger-sync: added a dark-mode toggle to the admin UI", "unrelated"],
  ])("%s -> %s", (text, stance) => {
    expect(judge(text).stance).toBe(stance);
  });

  it("reads a date moved as news only about a belief that names a time or a forecast", () => {
    const sync = { statement: "the weekly sync is a waste of everyone's morning", entities: ["Mara"], confidence: 0.7 };
    for (const text of [
      "- W @Mara: the weekly sync moved to 11:00 so the Lisbon office can join",
      "- W @Mara: weekly sync pushed back half an hour, everyone's morning is freer",
    ]) {
      expect(judgeSync(sync, line(text), known).stance, text).not.toBe("contradict");
    }
    const forecast = {
      statement: "the storefront beta will be out before the summer",
      entities: ["Mara"],
      confidence: 0.7,
    };
    expect(judgeSync(forecast, line("- W @Mara: storefront beta pushed back to September"), known).stance).toBe(
      "contradict",
    );
  });

  it("does not read a fact that only names a belief's subject as repeating the belief", () => {
    const car = { statement: "the shared car is a money pit", entities: ["Mara"], confidence: 0.7 };
    expect(judgeSync(car, line("- W @Mara: took the shared car to the coast on Saturday"), known).stance).toBe(
      "unrelated",
    );
    expect(
      judgeSync(car, line("- W @Mara: the shared car needed another 400 EUR of repairs, a money pit"), known).stance,
    ).toBe("support");
  });

  it("does not read a fact that names both sides of a ranking, and ranks neither, as repeating it", () => {
    const train = {
      statement: "the train is miles better than the coach to leeds",
      entities: ["Mara"],
      confidence: 0.7,
    };
    expect(judgeSync(train, line("- W @Mara: swapped the coach tickets to leeds for train ones"), known).stance).toBe(
      "unrelated",
    );
    expect(judgeSync(train, line("- W @Mara: the train to leeds beat the coach by an hour again"), known).stance).toBe(
      "support",
    );
  });

  it("weighs an outcome below the holder's own word", () => {
    const outcome = judge("- W @ledger-sync: the March cutover slipped two weeks");
    const own = judge("- O @Mara: no longer expects the ledger-sync cutover in March");
    expect(outcome.strength).toBeLessThan(own.strength);
  });

  it("reads outcomes the other way round for a negated belief", () => {
    const doubt = { ...belief, statement: "Doubts ledger-sync can cut over in March." };
    expect(judgeSync(doubt, line("- W @ledger-sync: the March cutover slipped two weeks"), known).stance).toBe(
      "support",
    );
    expect(judgeSync(doubt, line("- W @ledger-sync: March cutover confirmed"), known).stance).toBe("contradict");
  });

  it("finds the project by its plain-text name, without @", () => {
    const fact = line("- W @Tomasz: says ledger-sync cutover moved to April");
    expect(judgeSync(belief, fact, known).stance).toBe("contradict");
  });
});

describe("heuristicJudge (no LLM)", () => {
  const opinion = { statement: "ledger-sync ships in March.", entities: ["Jonas"], confidence: 0.8 };
  const fact = (content: string, entities = ["Jonas"]): Fact => ({
    id: "f",
    kind: "world",
    entities,
    content,
    date: "2026-03-09",
    source: { path: "memory/2026-03-09.md", line: 3 },
  });

  it.each([
    ["ledger-sync no longer ships in March.", "contradict"],
    ["ledger-sync will not ship in March.", "contradict"],
    ["ledger-sync slipped: it ships in April instead of March.", "contradict"],
    ["ledger-sync ships in March", "support"],
    ["ledger-sync is on track and ships in March as planned.", "support"],
    ["Bought new running shoes.", "unrelated"],
  ])("%s -> %s", async (content, stance) => {
    expect((await heuristicJudge.judge(opinion, fact(content))).stance).toBe(stance);
  });

  it("needs a shared holder or topic", async () => {
    expect((await heuristicJudge.judge(opinion, fact("Bought ledger-sync stickers.", ["Priya"]))).stance).toBe(
      "unrelated",
    );
  });

  it("reads a negated opinion the other way round", async () => {
    const negative = { ...opinion, statement: "ledger-sync does not ship in March." };
    expect((await heuristicJudge.judge(negative, fact("ledger-sync ships in March."))).stance).toBe("contradict");
    expect((await heuristicJudge.judge(negative, fact("ledger-sync no longer ships in March."))).stance).toBe(
      "support",
    );
  });

  it("is deterministic", async () => {
    expect(await heuristicJudge.judge(opinion, fact("ledger-sync ships in March."))).toEqual(
      await heuristicJudge.judge(opinion, fact("ledger-sync ships in March.")),
    );
  });
});

describe("cues", () => {
  it("counts cues as whole words", () => {
    expect(negationCount("Nothing here is notable")).toBe(0);
    expect(negationCount("She no longer drinks coffee, not even decaf")).toBe(2);
  });

  it("takes the longest phrase first and reads a negated bad outcome as good news", () => {
    expect(findCues("no longer on the table").map((c) => c.cue)).toEqual(["no longer"]);
    expect(findCues("The deploy is no longer blocked").map((c) => c.kind)).toEqual(["for"]);
    expect(findCues("Not really worried about it").map((c) => c.kind)).toEqual(["for"]);
    expect(findCues("Zoë is unsure").map((c) => c.cue)).toEqual(["unsure"]);
  });
});

describe("stance rules: a switch away from what the opinion holds", () => {
  const kafka = { statement: "Kafka is the right call for the event bus.", entities: ["Ruth"], confidence: 0.8 };
  const stance = (text: string, op: typeof kafka = kafka) => judgeSync(op, line(text), known).stance;

  it("contradicts the side given up, with no 'not' in the sentence", () => {
    expect(stance("- W @Ruth: Switched the event bus from Kafka to Postgres.")).toBe("contradict");
    expect(stance("- W @Ruth: Replaced Kafka with Postgres for the event bus.")).toBe("contradict");
    expect(stance("- W @Ruth: Moved the event bus off Kafka last week.")).toBe("contradict");
    expect(stance("- W @Ruth: Ditched Kafka for the event bus.")).toBe("contradict");
    expect(stance("- O @Ruth: Prefers Postgres over Kafka for the event bus.")).toBe("contradict");
  });

  it("supports the side taken, and reads a negated opinion the other way round", () => {
    expect(stance("- W @Ruth: Switched the event bus from Postgres to Kafka.")).toBe("support");
    expect(stance("- O @Ruth: Prefers Kafka over Postgres for the event bus.")).toBe("support");
    const negated = { ...kafka, statement: "Kafka is not the right call for the event bus." };
    expect(stance("- W @Ruth: Switched the event bus from Kafka to Postgres.", negated)).toBe("support");
  });

  it("reads a preference by the side it takes", () => {
    const prefers = { ...kafka, statement: "Prefers Datadog over Grafana for monitoring." };
    expect(stance("- W @Ruth: Moved monitoring from Datadog to Grafana Cloud to save money.", prefers)).toBe(
      "contradict",
    );
  });
});

describe("stance rules: a verdict on a rival the opinion never names", () => {
  const svelte = {
    statement: "Svelte is the better framework for the dashboard.",
    entities: ["Lena"],
    confidence: 0.6,
  };
  const judged = (text: string) => judgeSync(svelte, line(text), known);

  it("does not read 'wrong about the rival' or 'not worth the rival' as giving the belief up", () => {
    expect(judged("- O @Lena: I was wrong about React, staying on Svelte for the dashboard was right").stance).toBe(
      "support",
    );
    expect(judged("- O @Lena: Svelte is plenty for the dashboard; no need for Angular").stance).toBe("support");
  });

  it("still reads a clause about the opinion's own subject as a reversal", () => {
    expect(judged("- O @Lena: I was wrong about Svelte, moving the dashboard to React").stance).toBe("contradict");
    expect(judged("- O @Lena: the dashboard is fine, but Svelte was a mistake").stance).toBe("contradict");
  });
});

describe("stance rules: an outcome of no effect", () => {
  const bonus = { statement: "The referral bonus will boost signups.", entities: ["Mara"], confidence: 0.7 };

  it("contradicts a belief that something will move, though it repeats the belief's words", () => {
    for (const text of [
      "- W @Mara: signups stayed flat the month the referral bonus ran",
      "- W @Mara: the referral bonus had no measurable effect on signups",
    ]) {
      expect(judgeSync(bonus, line(text), known).stance, text).toBe("contradict");
    }
    expect(judgeSync(bonus, line("- W @Mara: the referral bonus doubled signups"), known).stance).toBe("support");
  });
});

describe("stance rules: hindsight praise and questions", () => {
  const vite = { statement: "Vite is the right bundler for the storefront.", entities: ["Ola"], confidence: 0.7 };
  const judged = (text: string) => judgeSync(vite, line(text), known);

  it("reads hindsight praise of another option as against the choice, with no 'not' in it", () => {
    for (const text of [
      "- O @Ola: building the storefront with Webpack would have been simpler in the end",
      "- O @Ola: we should have gone with Turbopack for the storefront",
      "- O @Ola: in hindsight Parcel would have been the safer pick for the storefront",
    ]) {
      const j = judged(text);
      expect(j.stance, text).toBe("contradict");
      expect(j.reason, text).toMatch(/in hindsight/);
    }
  });

  it("reads hindsight about the choice itself, or praise of what it was compared against, apart", () => {
    // The choice itself would have done better: no rival is preferred.
    expect(judged("- O @Ola: Vite would have been faster with a warm cache on the storefront").reason).not.toMatch(
      /in hindsight/,
    );
    const preference = { statement: "Vite beats Webpack for the storefront.", entities: ["Ola"], confidence: 0.7 };
    const j = judgeSync(preference, line("- O @Ola: Webpack would have been the safer pick for the storefront"), known);
    expect(j.stance).toBe("contradict");
    expect(j.reason).toBe('prefers "Webpack" in hindsight');
  });

  it("reads hindsight praise of the option an unnamed comparison ranked lower as against it", () => {
    const juniors = {
      statement: "hiring two juniors beats one senior for the platform team",
      entities: ["Ruth"],
      confidence: 0.75,
    };
    const j = judgeSync(
      juniors,
      line("- O @Ruth: in retrospect one senior would have been the better hire for the platform team"),
      known,
    );
    expect(j.stance).toBe("contradict");
    expect(j.reason).toBe('prefers "in retrospect one senior" in hindsight');
  });

  it("reads a comparison against the opinion's choice as contradicting it, a narrowed one as a hedge", () => {
    const grafana = {
      statement: "Grafana is the right dashboarding tool for ops",
      entities: ["Ruth"],
      confidence: 0.8,
    };
    const nicer = judgeSync(grafana, line("- O @Ruth: Datadog is nicer than Grafana for ops, to be fair"), known);
    expect([nicer.stance, nicer.reason]).toEqual(["contradict", 'gives up "Grafana"']);
    const narrowed = judgeSync(grafana, line("- O @Ruth: I still think Grafana is great, just not for logs"), known);
    expect([narrowed.stance, narrowed.strength]).toEqual(["contradict", 0.6]);
    const lisbon = { statement: "the Lisbon office should stay open", entities: ["Ruth"], confidence: 0.7 };
    expect(judgeSync(lisbon, line("- O @Ruth: the Lisbon office is not bad at all, keep it"), known).stance).toBe(
      "support",
    );
  });

  it("reads a restatement asked as a question as doubt, whatever its c=", () => {
    const j = judged("- O(c=0.9) @Ola: is Vite really the right bundler for the storefront?");
    expect(j.stance).toBe("contradict");
    expect(j.reason).toBe("asked as a question");
  });
});

describe("stance from what is praised or blamed, not only from a 'not'", () => {
  const kit = new KnownNames([["Kit", "2026-01-05"]]);
  const at = (statement: string, c = 0.7) => ({ statement, entities: ["Kit"], confidence: c });

  it("reads praise of what the holder blamed (and the reverse) as a change, though no 'not' is written", () => {
    const rota = at("the on-call rota is unfair to the two people in Lisbon");
    const fine = judgeSync(rota, line("- O @Kit: the rota's fine now that Austin has the weekends"), kit);
    expect([fine.stance, fine.reason]).toEqual(["contradict", 'cue "fine" against "unfair"']);
    const again = judgeSync(rota, line("- O @Kit: the rota is going to be lopsided again once Austin leaves"), kit);
    expect(again.stance).toBe("support");
    const ui = at("the admin UI feels sluggish on big accounts");
    expect(judgeSync(ui, line("- O @Kit: the admin UI is snappy since the virtualised table"), kit).stance).toBe(
      "contradict",
    );
  });

  it("reads a concession by its own clause, and a recant against a belief worded as a complaint", () => {
    const mistake = at("the Postgres migration is a mistake");
    const smoother = line("- O @Kit: admitted the Postgres migration went smoother than expected");
    expect(judgeSync(mistake, smoother, kit).stance).toBe("contradict");
    expect(judgeSync(mistake, line("- O @Kit: the Postgres migration was the wrong call"), kit).stance).toBe("support");
    const recant = judgeSync(mistake, line("- O @Kit: changed my mind on the Postgres migration"), kit);
    expect([recant.stance, recant.reason]).toEqual(["contradict", 'cue "changed my mind"']);
    // "admits" asserts what follows: conceding the belief itself holds it.
    const may = at("the May date for the launch is realistic");
    expect(
      judgeSync(may, line("- O @Kit: admits the May date for the launch is realistic after all"), kit).stance,
    ).toBe("support");
  });

  it("takes a plan for no evidence about a belief", () => {
    const rota = at("the on-call rota is unfair to the two people in Lisbon");
    const plan = judgeSync(rota, line("- O @Kit: going to try a new on-call rota for the two people in Lisbon"), kit);
    expect([plan.stance, plan.reason]).toEqual(["unrelated", "a plan, no belief"]);
  });
});

describe("a switch talked about, not made", () => {
  const kit = new KnownNames([
    ["Kit", "2026-01-05"],
    ["Notion", "2026-01-05"],
  ]);
  const notion = { statement: "@Notion is the best wiki we've had", entities: ["Kit", "Notion"], confidence: 0.7 };
  const said = (text: string) => judgeSync(notion, line(text), kit);

  it("holds the belief when giving the thing up would be worse, lets it go when it would be better", () => {
    expect(said("- O @Kit: moving off Notion would be a huge mistake, whatever finance says").stance).toBe("support");
    const relief = said("- O @Kit: migrating away from Notion would honestly be a relief");
    expect([relief.stance, relief.reason]).toEqual(["contradict", 'giving up "Notion" would be better ("a relief")']);
    expect(said("- O @Kit: if we switched away from Notion it would be painful for months").stance).toBe("support");
  });

  it("reads a switch only considered as wavering, and a switch made as giving the belief up", () => {
    const considered = said("- O @Kit: considering moving off Notion for the handbook");
    expect([considered.stance, considered.strength]).toEqual(["contradict", 0.6]);
    expect(said("- O @Kit: we moved off Notion last week").reason).toMatch(/^gives up "Notion/);
  });
});

describe("praise and blame in one statement", () => {
  const kit = new KnownNames([["Kit", "2026-01-05"]]);
  const at = (statement: string) => ({ statement, entities: ["Kit"], confidence: 0.8 });
  const stance = (statement: string, text: string) => judgeSync(at(statement), line(text), kit).stance;

  it("reads the clause closest to the belief when a statement judges two things both ways", () => {
    expect(stance("the new laptop is great", "- O @Kit: my old laptop was awful, the new laptop is great")).toBe(
      "support",
    );
    expect(
      stance(
        "Kafka is the right backbone for events",
        "- O @Kit: Kafka is a pain to operate but still the right backbone",
      ),
    ).toBe("support");
    expect(
      stance(
        "Postgres FTS is fine for docs search",
        "- O @Kit: Elasticsearch would be overkill for docs search, Postgres FTS is fine",
      ),
    ).toBe("support");
  });

  it("does not read blame of the rival in a ranking as blame of the choice", () => {
    expect(
      stance(
        "Svelte is a better fit than React for the dashboard",
        "- O @Kit: React is clunky compared to Svelte for the dashboard",
      ),
    ).toBe("support");
  });
});

describe("a take-back of the last thing said ('scrap that', 'take that back')", () => {
  const lights = { statement: "the new street lights are far too bright", entities: ["Ida"], confidence: 0.7 };
  const fact = line("- O @Ida: scrap that about the street lights being fine, too bright again tonight");
  it("holds the belief when the last word on it was a turn away", () => {
    const j = judgePair(lights, fact, "restatement", { lastStance: "contradict" });
    expect(j.stance).toBe("support");
  });

  it("takes the belief back when the last word on it held it", () => {
    const turn = line("- O @Ida: scrap that, the street lights are fine since the council dimmed them");
    expect(judgePair(lights, turn, "restatement", { lastStance: "support" }).stance).toBe("contradict");
    // "was wrong" is about the belief itself, whatever was said last.
    const wrong = line("- O @Ida: I was wrong about the street lights, they are fine");
    expect(judgePair(lights, wrong, "restatement", { lastStance: "contradict" }).stance).toBe("contradict");
  });
});

describe("a fact about the holder that says nothing of the belief's subject", () => {
  const bus = { statement: "taking the bus doesn't save any time", entities: ["Ida"], confidence: 0.6 };
  it("leaves the belief alone when only its predicate's words come back", () => {
    expect(judgeSync(bus, line("- W @Sam: @Ida saved time on the school run by leaving early")).stance).toBe(
      "unrelated",
    );
  });

  it("still reads a fact about the subject", () => {
    expect(judgeSync(bus, line("- W @Ida: taking the bus saved time again today, 20 minutes")).stance).toBe(
      "contradict",
    );
  });
});

describe("a plain fact judging the belief's subject in its own words", () => {
  it("turns a complaint round when the thing complained of is praised, though little else is shared", () => {
    const bus = {
      statement: "the council's night bus service is hopeless, it never shows",
      entities: ["Ida"],
      confidence: 0.7,
    };
    expect(judgeSync(bus, line("- W @Ida: the night bus turned up on time all week")).stance).toBe("contradict");
    // Naming the bus without judging it says nothing.
    expect(judgeSync(bus, line("- W @Ida: took the night bus home from Leo's")).stance).not.toBe("contradict");
  });
});

describe("an outcome for what a belief is about, in few shared words", () => {
  it("reads a moved date of the thing a forecast names as news against it", () => {
    const move = { statement: "opening the shop in March is doable", entities: ["Ida"], confidence: 0.7 };
    expect(judgeSync(move, line("- W @Ida: the landlord moved the opening to April 20")).stance).toBe("contradict");
    // Another thing's date says nothing of it.
    expect(judgeSync(move, line("- W @Ida: the landlord moved the inspection to April 20")).stance).toBe("unrelated");
  });
});

describe("how a reported forecast came out, as its reporter writes it", () => {
  const odile = {
    statement: "Odile figures the landlord will cave on the rent by spring",
    entities: ["Sam", "Odile"],
    confidence: 0.6,
  };
  it("reads the reporter's outcome about the forecast's subject as evidence", () => {
    expect(judgeSync(odile, line("- W @Sam: the landlord turned down the rent cut, letter came today")).stance).toBe(
      "contradict",
    );
  });

  it("leaves it alone for another thing's outcome or the reporter's own news", () => {
    expect(judgeSync(odile, line("- W @Sam: the council turned down my parking permit")).stance).toBe("unrelated");
    expect(judgeSync(odile, line("- B @Sam: paid the rent early this month")).stance).toBe("unrelated");
  });
});
