// fixtures/beliefs: three people's beliefs over eight weeks, written the way people write
// them: restated in other words ("glad we went with Rust for parsing"), hedged ("starting
// to doubt", "jury's still out"), reversed indirectly ("we're ripping Kafka out"), doubted
// verdicts ("not sure Kafka was wrong", "not convinced Rust was a bad idea"), a verdict on
// a rival ("I was wrong about Go"), and other beliefs that share words but are not the same.
import { describe, expect, it } from "vitest";
import { confidence, opinionStarting, reflectedFixture, evidenceRow as row } from "./opinion-fixture-support.js";

const fixture = reflectedFixture("beliefs", "2026-04-28T12:00:00Z");
const opinion = (start: string) => opinionStarting(fixture.blocks, start);

describe("fixtures/beliefs after one reflect", () => {
  it("keeps one opinion per belief: restatements, hedges and reversals in other words are evidence, not new opinions", () => {
    const titles = fixture.blocks.map((b) => b.split("\n")[0]);
    for (const restated of [
      "glad we went with Rust",
      "not so sure anymore",
      "not convinced Rust",
      "starting to doubt Kafka",
      "ripping Kafka out",
      "not sure Kafka was wrong",
      "jury's still out",
      "I was wrong about",
    ]) {
      expect(
        titles.filter((t) => t!.includes(restated)),
        restated,
      ).toEqual([]);
    }
  });

  it("keeps beliefs that only share words apart (the parser's error messages, Postgres for docs search)", () => {
    const rust = opinion("Rust is the right choice");
    const errors = opinion("the parser's error messages");
    expect(row(errors, "glad we went with Rust")).toBeUndefined();
    expect(row(rust, "error messages")).toBeUndefined();
    opinion("Postgres full-text search");
  });

  it("reads a verdict on the rival as holding the belief, and a doubted verdict as no reversal", () => {
    const rust = opinion("Rust is the right choice");
    expect(row(rust, "glad we went with Rust")).toMatch(/ supports /);
    expect(row(rust, "I was wrong about Go")).toMatch(/ supports /);
    expect(row(rust, "not convinced Rust was a bad idea")).not.toMatch(/cue "bad idea"/);
    expect(row(rust, "not so sure anymore")).toMatch(/ contradicts /);
    expect(row(rust, "not so sure anymore")).not.toMatch(/cue "anymore"/);
    expect(confidence(rust)).toBeGreaterThan(0.6);
    const fts = opinion("Postgres full-text search");
    expect(row(fts, "not worth adding Elasticsearch")).toMatch(/ supports /);
    expect(fts).toMatch(/- contradicting: none/);
  });

  it("reads hindsight praise of a rival as against the choice, and a counterfactual as evidence on it", () => {
    // "rewriting the parser in Go would have been faster" is about Rust for the parser, not the error messages.
    const rust = opinion("Rust is the right choice");
    expect(row(rust, "in Go would have been faster")).toMatch(
      / contradicts .*prefers "honestly, rewriting the parser in Go" in hindsight/,
    );
    expect(row(opinion("the parser's error messages"), "in Go would have been faster")).toBeUndefined();
    // "Kafka would have been fine if we'd had ..." looks back on the Kafka belief: no belief of its own.
    expect(row(opinion("Kafka is the right backbone"), "Kafka would have been fine if")).toBeDefined();
    expect(fixture.blocks.filter((b) => b.startsWith("Kafka would have been fine"))).toEqual([]);
  });

  it("weakens Kafka as its holder doubts it and rips it out, and reads 'not sure Kafka was wrong' as a hedge on it", () => {
    const kafka = opinion("Kafka is the right backbone");
    expect(row(kafka, "starting to doubt Kafka")).toMatch(/ contradicts /);
    expect(row(kafka, "ripping Kafka out")).toMatch(/ contradicts /);
    const hedge = row(kafka, "not sure Kafka was wrong");
    expect(hedge).toBeDefined();
    expect(hedge).not.toMatch(/cue "was wrong"/);
    expect(confidence(kafka)).toBeLessThan(0.6);
    expect(kafka).toMatch(/- status: (weakened|reversed)/);
  });

  it("moves the pricing belief down step by step as its holder hedges and then gives it up", () => {
    const pricing = opinion("the new pricing page");
    expect(row(pricing, "jury's still out")).toMatch(/ contradicts /);
    expect(row(pricing, "conversion is flat since")).toMatch(/ contradicts /);
    expect(row(pricing, "I was wrong about the pricing page")).toMatch(/ contradicts /);
    expect(confidence(pricing)).toBeLessThan(0.5);
    expect(pricing).toMatch(/- status: (weakened|reversed)/);
  });
});
