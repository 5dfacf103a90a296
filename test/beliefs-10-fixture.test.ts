// fixtures/beliefs-10: a software lead's end-of-day notes in Slack shorthand (lower case, emoji,
// "tbh", "imo", "ngl", "+1", "w/", arrows "->", "nvm"), held out after beliefs-9's fixes
// (fixtures/beliefs-10/EXPECTED.md). Colleagues are written in lower case and never tagged;
// MEMORY.md says who they are ("Marta is our PM", "Owen is the CTO", "My partner Luis"), so
// "marta says", "our cto is convinced" and "luis admits" are Marta's, Owen's and Luis's; a
// forecast that something will slip is answered by it shipping early; a comparison that ends
// "not even close" insists; "X. nvm Y" is read by Y; "Great, staging has been up all week, lovely"
// is meant; a chat question without its auxiliary ("anyone know if ...") and a plan ("gonna move
// retro ...") are no opinions.
import { describe, expect, it } from "vitest";
import {
  confidence,
  entitiesLine,
  opinionStarting,
  reflectedFixture,
  evidenceRow as row,
  evidenceStrength as strength,
} from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs-10", "2026-10-13T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs-10 after one reflect", () => {
  it("keeps one opinion per belief, none for a chat question, a plan or a prose-only day", () => {
    const starts = [
      "the new CI pipeline is way too slow",
      "raj reckons the monorepo migration",
      "linear is miles better than jira",
      "marta thinks nobody actually cares",
      "tbh going with graphql",
      "pairing with the juniors",
      "the on-call rota is fair now",
      "our cto is convinced",
      "the new standup bot is annoying",
      "checkout v2 is gonna slip",
      "my partner thinks the lisbon offsite",
      "the mobile team all feel",
      "our staging env is a flaky mess",
      "raj reckons the new job queue",
      // Second round.
      "the new on-call tooling is gonna be late",
      "our PM reckons the pricing page redesign",
    ];
    for (const start of starts) opinion(start);
    const others = fixture.blocks.filter((b) => !starts.some((s) => b.startsWith(s)));
    expect(others.filter((b) => /^(?:should we|anyone know|anybody else|gonna move)/.test(b))).toEqual([]);
    // Two of round two's restatements in other words are still new opinions (EXPECTED.md R3, R7).
    expect(others.map((b) => b.split("\n")[0])).toEqual([
      "idk about linear for roadmaps tbh",
      "Nice, the staging cluster is back up, love it",
    ]);
  });

  it("gives marta's, the cto's and the partner's beliefs to the people MEMORY.md names", () => {
    expect(entitiesLine(opinion("marta thinks nobody actually cares"))).toBe("@Ines, @Marta");
    expect(entitiesLine(opinion("our cto is convinced"))).toBe("@Ines, @Owen");
    expect(entitiesLine(opinion("my partner thinks the lisbon offsite"))).toBe("@Ines, @Luis");
    expect(entitiesLine(opinion("our PM reckons the pricing page redesign"))).toBe("@Ines, @Marta");
    expect(entitiesLine(opinion("the mobile team all feel"))).not.toContain("@Ines");
    const darkMode = opinion("marta thinks nobody actually cares");
    expect(row(darkMode, "marta says still nobody is asking for dark mode")).toMatch(/ supports /);
    expect(row(darkMode, "marta changed her mind on dark mode")).toMatch(/ contradicts /);
    expect(row(opinion("our cto is convinced"), "owen has gone a bit cold on the rust rewrite")).toMatch(
      / contradicts /,
    );
    expect(row(opinion("my partner thinks the lisbon offsite"), "luis admits the offsite")).toMatch(/ contradicts /);
    expect(row(opinion("the mobile team all feel"), "the mobile team admits the design system saved")).toMatch(
      / contradicts /,
    );
  });

  it("reads Slack sarcasm, other words and a 'nvm' take-back as support, and a new word for fast as turning", () => {
    const ci = opinion("the new CI pipeline is way too slow");
    expect(row(ci, "CI took 40 mins on a one line change -> love that for us")).toMatch(/ supports /);
    expect(row(ci, "moved the CI runners over")).toBeUndefined();
    expect(row(ci, "CI is painfully slow again")).toMatch(/ supports /);
    expect(row(ci, "ngl CI is actually pretty snappy since the cache fix")).toMatch(/ contradicts /);
    expect(row(ci, "demoed the new refunds flow")).toBeUndefined();
    const bot = opinion("the new standup bot is annoying");
    expect(row(bot, "the standup bot is fine tbh. nvm it just spammed")).toMatch(/ supports /);
  });

  it("reads '+1', a hedge, 'dunno if' and 'kind of a time sink' as they are meant", () => {
    const graphql = opinion("tbh going with graphql");
    expect(row(graphql, "+1 on graphql, the mobile folks are loving it")).toMatch(/ supports /);
    const hedge = row(graphql, "not sure graphql was worth it tbh");
    expect(hedge).toMatch(/ contradicts /);
    expect(strength(hedge)).toBeLessThan(0.9);
    const pairing = opinion("pairing with the juniors");
    expect(row(pairing, "paired w/ sam on the webhook retries for 2h, 100% worth it")).toMatch(/ supports /);
    expect(row(pairing, "pairing is kind of a time sink this week ngl")).toMatch(/ contradicts /);
    const rota = opinion("the on-call rota is fair now");
    const dunno = row(rota, "dunno if the on-call rota is that fair tbh");
    expect(dunno).toMatch(/ contradicts /);
    expect(strength(dunno)).toBeLessThan(0.9);
    expect(row(rota, "maybe the rota isn't as fair as I thought")).toMatch(/ contradicts /);
    expect(confidence(rota)).toBeLessThan(0.7);
  });

  it("reads a ranking that ends 'not even close' by its side, and a backlog export as no ranking", () => {
    const linear = opinion("linear is miles better than jira");
    expect(row(linear, "exported the rest of the jira backlog into linear")).toBeUndefined();
    expect(row(linear, "linear still beats jira for triage imo")).toMatch(/ supports /);
    expect(row(linear, "jira is honestly better than linear for roadmaps")).toMatch(/ contradicts /);
  });

  it("answers forecasts by how things came out, and keeps another forecast of the same person apart", () => {
    const monorepo = opinion("raj reckons the monorepo migration");
    expect(row(monorepo, "monorepo migration pushed to next sprint, again")).toMatch(/ contradicts /);
    expect(row(monorepo, "raj admits the monorepo migration is gonna take another two weeks")).toMatch(/ contradicts /);
    expect(confidence(monorepo)).toBeLessThan(0.6);
    expect(row(monorepo, "raj reckons the new job queue")).toBeUndefined();
    const checkout = opinion("checkout v2 is gonna slip");
    expect(row(checkout, "checkout v2 shipped on the 14th")).toMatch(/ contradicts /);
    expect(confidence(checkout)).toBeLessThan(0.6);
  });

  it("reads praise at both ends of news that staging works again as meant", () => {
    expect(row(opinion("our staging env is a flaky mess"), "Great, staging has been up all week, lovely")).toMatch(
      / contradicts /,
    );
  });

  it("second round (held out): a late forecast and a PM's forecast answered by how they went", () => {
    expect(row(opinion("the new on-call tooling is gonna be late"), "the on-call tooling went live on time")).toMatch(
      / contradicts /,
    );
    expect(row(opinion("our PM reckons the pricing page redesign"), "pricing page redesign went live")).toMatch(
      / contradicts /,
    );
  });

  it("second round, after its fixes: 'luis says ... a rip-off' restates 'a waste of money', 'crawling' is slow", () => {
    expect(row(opinion("my partner thinks the lisbon offsite"), "luis says the offsite hotel was a rip-off")).toMatch(
      / supports /,
    );
    expect(row(opinion("the new CI pipeline is way too slow"), "CI is fine now. ignore that, it's crawling")).toMatch(
      / supports /,
    );
  });
});
