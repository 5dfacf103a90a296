// The matcher (issue 10, item 1): opinion identity is holder + topic. Restatements in
// other words attach to the one opinion they restate; another topic of the same holder,
// or the same words from another holder, is an opinion of its own.
import { describe, expect, it } from "vitest";
import { parseRetain } from "../retain/index.js";
import type { Fact } from "../retain/types.js";
import { evolveOpinions } from "./evolve.js";

function logs(days: Record<string, string>): Fact[] {
  return Object.entries(days).flatMap(([date, body]) => {
    const { facts, diagnostics } = parseRetain(`memory/${date}.md`, `# ${date}\n\n## Retain\n${body}\n`);
    expect(diagnostics).toEqual([]);
    return facts;
  });
}

const constants = { step: 0.15, dayBonus: 0.25, floor: 0.02, ceiling: 0.98, maxDayFactor: 2 };
const run = (facts: Fact[]) =>
  evolveOpinions({
    opinions: [],
    facts,
    constants,
    matching: { minSimilarity: 0.3, restateSimilarity: 0.45 },
    defaultConfidence: 0.7,
  });

describe("opinion identity = holder + topic", () => {
  it("attaches restatements in other words to one opinion and keeps other topics apart", async () => {
    const facts = logs({
      "2026-03-03": [
        "- O(c=0.8) @Jonas @ledger-sync: ledger-sync ships in March.",
        "- O(c=0.9) @Jonas: Standups should be async, a written thread is enough.",
      ].join("\n"),
      "2026-03-09": "- O(c=0.6) @Jonas: March for ledger-sync is looking optimistic; the cursor redesign ate a week",
      "2026-03-12": "- O @Jonas: would put money on ledger-sync shipping by the 31st, but only just",
      "2026-03-16": "- O(c=0.3) @Jonas: changed his mind, the ledger-sync release is an April thing now",
      "2026-03-17": "- O(c=0.85) @Jonas: the team's written async updates beat the standup, keep them",
      "2026-03-20": [
        "- O @Jonas: Pairing on the FX rounding bug would have saved us days.",
        "- O(c=0.8) @Priya: ledger-sync ships in March.",
      ].join("\n"),
    });
    const { opinions, created } = await run(facts);
    expect(opinions.map((o) => [o.entities[0], o.statement])).toEqual([
      ["Jonas", "ledger-sync ships in March."],
      ["Jonas", "Standups should be async, a written thread is enough."],
      ["Jonas", "Pairing on the FX rounding bug would have saved us days."],
      ["Priya", "ledger-sync ships in March."],
    ]);
    expect(created).toHaveLength(4);
    const [ship, standup] = opinions;
    expect(ship!.evidence.map((e) => e.date)).toEqual(["2026-03-03", "2026-03-09", "2026-03-12", "2026-03-16"]);
    expect(standup!.evidence.map((e) => e.date)).toEqual(["2026-03-03", "2026-03-17"]);
    // The March belief lost ground on each restatement that said less; the thread one held.
    expect(ship!.confidence).toBeLessThan(0.6);
    expect(standup!.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it("keeps the holder's own word on a belief as its evidence, not a new opinion, though the matcher could not tie the words", async () => {
    const facts = logs({
      "2026-05-04": "- O(c=0.75) @Ines: offsites are pointless",
      "2026-06-10": "- O @Ines: ok fine, the Porto offsite turned out useful, credit to Dana",
      "2026-06-11": "- O @Ines: Porto has the best custard tarts in Europe",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => o.statement)).toEqual([
      "offsites are pointless",
      "Porto has the best custard tarts in Europe",
    ]);
    expect(opinions[0]!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-05-04", "support"],
      ["2026-06-10", "contradict"],
    ]);
  });

  it("takes evidence tagged with the project, or naming it in plain text, to the person's opinion", async () => {
    const facts = logs({
      "2026-03-03": "- O(c=0.8) @Jonas: ledger-sync ships in March.",
      "2026-03-10": "- W @ledger-sync: March ship date slipped; release moved to April 14.",
      "2026-03-11": "- S: Release of ledger-sync confirmed for April, the March ship window is gone.",
      "2026-03-12": "- W @Priya: Bought a standing desk.",
    });
    const { opinions } = await run(facts);
    expect(opinions).toHaveLength(1);
    expect(opinions[0]!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-03-03", "support"],
      ["2026-03-10", "contradict"],
      ["2026-03-11", "contradict"],
    ]);
  });

  it("reads news of an outcome only for the thing it names, not for a belief that shares a 'new'", async () => {
    const facts = logs({
      "2026-03-03": "- O(c=0.7) @Jonas: the new build pipeline is way too slow",
      "2026-03-10": "- B @Jonas: demoed the new refunds flow to finance, they signed off",
    });
    const { opinions } = await run(facts);
    expect(opinions).toHaveLength(1);
    expect(opinions[0]!.evidence.map((e) => e.date)).toEqual(["2026-03-03"]);
  });

  it("keeps a forecast of another thing apart, though it shares a word, and joins one of the same thing", async () => {
    const facts = logs({
      "2026-03-03": "- O(c=0.6) @Jonas: the spring fair is going to be rained off",
      "2026-03-10": "- O @Jonas: the christmas fair will be a sell-out",
      "2026-03-12": "- O @Jonas: the spring fair will be a washout, mark my words",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => [o.statement, o.evidence.length])).toEqual([
      ["the spring fair is going to be rained off", 2],
      ["the christmas fair will be a sell-out", 1],
    ]);
  });

  it("a same-day restatement joins the new opinion without moving it", async () => {
    const facts = logs({
      "2026-03-03": [
        "- O(c=0.8) @Mara: the vendor API is the riskiest part of ledger-sync",
        "- O @Mara: of everything in ledger-sync, the vendor API worries her most",
      ].join("\n"),
    });
    const { opinions } = await run(facts);
    expect(opinions).toHaveLength(1);
    expect(opinions[0]!.confidence).toBe(0.8);
    expect(opinions[0]!.evidence).toHaveLength(2);
  });

  it("ties restatements to a named tool written without @, and keeps another belief about it apart", async () => {
    const facts = logs({
      "2026-05-04": "- O(c=0.8) @Lena: Svelte is the better frontend framework for the dashboard",
      "2026-05-08": "- O(c=0.8) @Lena: happy we picked Svelte for the frontend, bundle is tiny",
      "2026-05-12": "- O(c=0.7) @Lena: the Svelte conference in Berlin is worth the ticket price",
      "2026-05-20": "- O(c=0.5) @Lena: beginning to doubt Svelte, hiring for it is slow",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => o.statement)).toEqual([
      "Svelte is the better frontend framework for the dashboard",
      "the Svelte conference in Berlin is worth the ticket price",
    ]);
    expect(opinions[0]!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-05-04", "support"],
      ["2026-05-08", "support"],
      ["2026-05-20", "contradict"],
    ]);
  });
});

describe("whose belief, and which one, in the words people use", () => {
  it("reads a belief reported for someone else as theirs, and their own later words as its evidence", async () => {
    const facts = logs({
      "2026-05-04": "- O(c=0.8) @Hannah: async standups give the team back focus time",
      "2026-05-12": [
        "- O(c=0.7) @Hannah @Priya: Priya thinks async standups will leave new hires feeling cut off",
        "- O @Hannah: according to @Jonas, the Adyen migration is a waste of a quarter",
        "- O @Hannah: @Li is convinced the Adyen fees are lower than Stripe's",
      ].join("\n"),
      "2026-06-09": "- O(c=0.4) @Jonas: the Adyen migration might pay off after all",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => o.statement)).toEqual([
      "async standups give the team back focus time",
      "Priya thinks async standups will leave new hires feeling cut off",
      "according to @Jonas, the Adyen migration is a waste of a quarter",
      "@Li is convinced the Adyen fees are lower than Stripe's",
    ]);
    const [hannah, , jonas] = opinions;
    // Priya's worry is not Hannah restating her own belief.
    expect(hannah!.evidence).toHaveLength(1);
    expect(jonas!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-05-12", "support"],
      ["2026-06-09", "contradict"],
    ]);
  });

  it("ties a verdict, a counterfactual or a comparison on a named choice to the belief about it", async () => {
    const facts = logs({
      "2026-05-04": [
        "- O(c=0.7) @Sam: Pulumi beats Terraform for our infra, typed configs catch mistakes",
        "- O(c=0.7) @Sam: Nomad is the right scheduler for the batch jobs",
      ].join("\n"),
      "2026-05-20": "- O @Sam: not only is Pulumi faster to write, it is also cheaper to run in CI",
      "2026-06-01": "- O @Sam: Pulumi was the right call, zero drift since the move",
      "2026-06-15": "- O(c=0.5) @Sam: Nomad would have been fine if we'd had someone who knows Consul",
      "2026-06-20": "- O @Sam: Pulumi docs are a mess and the Berlin meetup was a waste of time",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => o.statement)).toEqual([
      "Pulumi beats Terraform for our infra, typed configs catch mistakes",
      "Nomad is the right scheduler for the batch jobs",
      "Pulumi docs are a mess and the Berlin meetup was a waste of time",
    ]);
    const [pulumi, nomad] = opinions;
    expect(pulumi!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-05-04", "support"],
      ["2026-05-20", "support"],
      ["2026-06-01", "support"],
    ]);
    expect(nomad!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-05-04", "support"],
      ["2026-06-15", "contradict"],
    ]);
  });

  it("makes no opinion of a question, and ties hindsight praise of a rival to the choice it regrets", async () => {
    const facts = logs({
      "2026-03-02": [
        "- O(c=0.8) @Nadia: Rust is the right choice for the query parser",
        "- O(c=0.6) @Nadia: the parser's error messages need a complete rewrite",
      ].join("\n"),
      "2026-03-09": "- O @Nadia: is the tokenizer really the slow part?",
      "2026-03-30": "- O @Nadia: honestly, rewriting the parser in Go would have been faster",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => o.statement)).toEqual([
      "Rust is the right choice for the query parser",
      "the parser's error messages need a complete rewrite",
    ]);
    expect(opinions[0]!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-03-02", "support"],
      ["2026-03-30", "contradict"],
    ]);
    expect(opinions[1]!.evidence).toHaveLength(1);
  });
});

describe("a forecast reported for someone, with no reporter tagged", () => {
  it("is answered by how it came out, whoever reports that", async () => {
    const facts = logs({
      "2026-04-01": "- O(c=0.6) according to Bernard, the new ferry timetable will be published by May",
      "2026-04-20": "- W @Oona: the new ferry timetable was published this morning, confirmed on the harbour board",
      "2026-04-22": "- W @Oona: the ferry was late again",
    });
    const { opinions } = await run(facts);
    expect(opinions.map((o) => [o.entities, o.statement.slice(0, 25)])).toEqual([
      [["Bernard"], "according to Bernard, the"],
    ]);
    expect(opinions[0]!.evidence.map((e) => [e.date, e.stance])).toEqual([
      ["2026-04-01", "support"],
      ["2026-04-20", "support"],
    ]);
    expect(opinions[0]!.confidence).toBeGreaterThan(0.6);
  });
});
