import { type ArmContext, entityArm, factsArm, linesArm, opinionArm, timeArm, vectorArm } from "./arms.js";
import { entityAnswersArm } from "./entity-answers.js";
import { multiHopArm } from "./multihop.js";
import type { RecallPlan } from "./plan.js";
import { DEFAULT_SYNONYM_ARM, synonymArm } from "./synonym-arm.js";
import type { ArmList } from "./types.js";
import { vectorSourceArm } from "./vector-source.js";

/**
 * The retrieval arms, as data: when each runs, at which weight, and what it runs. recall()
 * runs every arm whose `when` holds and fuses their lists; no arm reads another's result
 * (the lexical line hits the vector arm re-ranks come from ctx.lexicalLines, computed once).
 * A new arm is one more entry here.
 */
export interface ArmSpec {
  name: string;
  when: (plan: RecallPlan, ctx: ArmContext) => boolean;
  weight: (plan: RecallPlan) => number;
  run: (ctx: ArmContext, weight: number) => ArmList | Promise<ArmList>;
  /** An empty list of this arm is left out of the fusion (and of --explain). */
  optional?: boolean;
}

const w = (plan: RecallPlan, name: string): number => plan.tuning.weights[name] ?? 0;

export const ARMS: readonly ArmSpec[] = [
  {
    name: "lexical",
    when: (p) => p.lexical,
    weight: (p) =>
      w(p, "lexical") *
      (p.intent.kinds.includes("entity") && p.intent.contentTerms.length === 0 ? p.tuning.nameOnlyLexical : 1),
    run: linesArm,
  },
  {
    name: "synonyms",
    when: (p) => p.lexical && p.tuning.synonyms !== "off",
    weight: (p) => w(p, "synonyms"),
    run: (ctx, weight) => synonymArm(ctx, weight, { ...DEFAULT_SYNONYM_ARM, mode: ctx.plan.tuning.synonyms }),
    optional: true,
  },
  {
    name: "multihop",
    when: (p) => p.lexical && w(p, "multihop") > 0,
    weight: (p) => w(p, "multihop"),
    run: multiHopArm,
    optional: true,
  },
  { name: "facts", when: (p, ctx) => p.lexical && ctx.idx.fts, weight: (p) => w(p, "facts"), run: factsArm },
  {
    name: "entity",
    // An entity question ("who is Elin?", "the tester from France") may name no entity: the
    // answers from the bank (entity-answers.ts) resolve descriptions too.
    when: () => true,
    // The plain entity arm ranks by recency, not by the question's other words: a strong
    // lead for "tell me about Priya", a weaker prior when the question also asks about something.
    weight: (p) => w(p, "entity") * (p.intent.kinds.includes("lexical") ? p.tuning.entityWithWords : 1),
    run: (ctx, weight) => {
      const answers = entityAnswersArm(ctx, ctx.entities, w(ctx.plan, "entity"));
      if (answers.items.length > 0 || ctx.plan.intent.entities.length === 0) return answers;
      return entityArm(ctx, ctx.entities, weight);
    },
    optional: true,
  },
  {
    name: "time",
    when: (p) => p.intent.window !== undefined,
    weight: (p) => w(p, "time") * (p.vagueOnly ? p.tuning.vagueTime : 1),
    run: timeArm,
  },
  { name: "opinion", when: (p) => p.intent.kinds.includes("opinion"), weight: (p) => w(p, "opinion"), run: opinionArm },
  {
    name: "vector",
    when: (_, ctx) => ctx.embedder !== undefined,
    weight: (p) => w(p, "vector"),
    run: (ctx, weight) => vectorArm(ctx, ctx.embedder!, weight),
  },
  {
    name: "semantic",
    when: (p, ctx) => ctx.embedder !== undefined && w(p, "semantic") > 0,
    weight: (p) => w(p, "semantic"),
    run: (ctx, weight) => vectorSourceArm(ctx, ctx.embedder!, weight),
    optional: true,
  },
];
