// How the judge reads a statement that corrects itself, and how a forecast came out.
import { describe, expect, it } from "vitest";
import { parseRetain } from "../retain/index.js";
import type { Fact } from "../retain/types.js";
import { judgePair, judgeSync } from "./judge.js";

/** One Retain line as a person writes it, parsed the way reflect sees it. */
function line(text: string, date = "2026-03-12"): Fact {
  const { facts, diagnostics } = parseRetain(`memory/${date}.md`, `# ${date}\n\n## Retain\n${text}\n`);
  expect(diagnostics).toEqual([]);
  return facts[0]!;
}

describe("a statement that corrects itself ('X. scratch that, Y')", () => {
  const lights = { statement: "the new street lights are far too bright", entities: ["Ida"], confidence: 0.7 };
  it("takes back what it said before the take-back and is read by what follows", () => {
    const held = line(
      "- O @Ida: the street lights are fine now they dimmed them. scrap that, too bright again tonight",
    );
    // Whatever was said last on an earlier day: the take-back points inside the line.
    expect(judgePair(lights, held, "restatement", { lastStance: "support" }).stance).toBe("support");
    const turned = line(
      "- O @Ida: street lights still too bright, scratch that, they're fine since the council dimmed them",
    );
    expect(judgePair(lights, turned, "restatement", { lastStance: "support" }).stance).toBe("contradict");
  });

  it("reads chat shorthand for a take-back ('nvm', 'ignore that') the same way", () => {
    const held = line("- O @Ida: the street lights are fine tbh. nvm they're blinding again tonight");
    expect(judgePair(lights, held, "restatement", { lastStance: "support" }).stance).toBe("support");
    const turned = line("- O @Ida: street lights still too bright. ignore that, they're fine since they dimmed them");
    expect(judgePair(lights, turned, "restatement", { lastStance: "support" }).stance).toBe("contradict");
  });
});

describe("how a forecast came out", () => {
  it("reads an outcome that went well against a forecast of failure, and one that went badly as bearing it out", () => {
    const flop = {
      statement: "Nell reckons the pop-up cinema is going to flop",
      entities: ["Nell", "Ida"],
      confidence: 0.6,
    };
    const hit = line("- W @Ida: the pop-up cinema sold out on the first night");
    expect(judgePair(flop, hit, "topic").stance).toBe("contradict");
    const flopped = line("- W @Ida: the pop-up cinema flopped, nobody came");
    expect(judgePair(flop, flopped, "topic").stance).toBe("support");
    // A forecast of success reads the same outcomes the other way round.
    const good = { statement: "the pop-up cinema will be a big success", entities: ["Ida"], confidence: 0.6 };
    expect(judgePair(good, hit, "topic").stance).toBe("support");
    expect(judgePair(good, flopped, "topic").stance).toBe("contradict");
  });

  it("reads a forecast of rain for an event against the event going ahead, by the forecast's own clause", () => {
    const rain = {
      statement: "it'll pour for the school sports day so no point buying the gazebo",
      entities: ["Ida"],
      confidence: 0.6,
    };
    const ahead = line("- W @Ida: school sports day went ahead, not a cloud in the sky");
    expect(judgePair(rain, ahead, "topic").stance).toBe("contradict");
    const off = line("- W @Ida: school sports day was rained off");
    expect(judgePair(rain, off, "topic").stance).toBe("support");
  });

  it("reads a forecast that something will be late against it landing on time, and a slip as bearing it out", () => {
    const late = {
      statement: "the kitchen refit is going to overrun, mark my words",
      entities: ["Ida"],
      confidence: 0.6,
    };
    expect(
      judgePair(late, line("- W @Ida: the kitchen refit finished on time, signed off friday"), "topic").stance,
    ).toBe("contradict");
    expect(judgePair(late, line("- W @Ida: the kitchen refit slipped to march"), "topic").stance).toBe("support");
    const slip = { statement: "the app release will slip past easter", entities: ["Ida"], confidence: 0.6 };
    expect(judgePair(slip, line("- W @Ida: the app release shipped two days early"), "topic").stance).toBe(
      "contradict",
    );
  });

  it("reads a reported forecast by what was forecast, not by who forecast it", () => {
    const sure = {
      statement: "Nell is convinced the village show will be rained off again",
      entities: ["Ida", "Nell"],
      confidence: 0.6,
    };
    expect(judgeSync(sure, line("- W @Ida: the village show went ahead in the sunshine")).stance).toBe("contradict");
  });
});

describe("an outcome on a belief that names no time", () => {
  it("bears out a complaint when things went badly, and answers praise", () => {
    const complaint = { statement: "the council's recycling service is useless", entities: ["Ida"], confidence: 0.7 };
    const praise = { statement: "the council's recycling service is excellent", entities: ["Ida"], confidence: 0.7 };
    const news = line("- W @Ida: the recycling service had no improvement at all after the new contract");
    expect(judgePair(complaint, news, "topic").stance).toBe("support");
    expect(judgePair(praise, news, "topic").stance).toBe("contradict");
  });
});

describe("a verdict restated in other words", () => {
  it("reads 'more hassle than it's worth' as saying again that a thing is overkill", () => {
    const k8s = { statement: "Kubernetes is overkill for a team of four", entities: ["Oli"], confidence: 0.7 };
    const again = line("- O(c=0.75) @Oli: with four engineers, Kubernetes is more hassle than it's worth");
    expect(judgePair(k8s, again, "restatement").stance).toBe("support");
    const turned = line("- O(c=0.75) @Oli: with four engineers, Kubernetes is well worth the hassle");
    expect(judgePair(k8s, turned, "restatement").stance).toBe("contradict");
  });
});
