import type { AnswerCache } from "../index/answer-cache.js";
import { citeLine } from "../markdown/citation.js";
import { KIND_BY_LETTER } from "../retain/types.js";
import { type AskState, askValidated, type Completer } from "./ask.js";
import { extractionPrompt, judgePrompt, summaryPrompt } from "./prompts.js";
import { extractionAnswer, judgementAnswer, summaryAnswer } from "./schemas.js";
import type { ExtractedFact, Judge, Judgement, LlmServices } from "./types.js";

/** Opinions without a stated confidence get none here; the retain default applies when parsed. */
function toExtractedFact(answer: {
  kind: "W" | "B" | "O" | "S";
  entities: string[];
  confidence?: number | null | undefined;
  content: string;
}): ExtractedFact {
  const kind = KIND_BY_LETTER[answer.kind]!;
  const fact: ExtractedFact = { kind, entities: [...new Set(answer.entities)], content: answer.content };
  if (kind === "opinion" && typeof answer.confidence === "number") fact.confidence = answer.confidence;
  return fact;
}

/** The placeholder a skipped judgement returns: it moves no confidence. */
const SKIPPED: Judgement = { stance: "unrelated", strength: 0, reason: "no valid LLM answer", skipped: true };

/** LLM services (judge, summaries, extraction) over any provider that can complete a request. */
export function createServices(completer: Completer, cache?: AnswerCache): LlmServices & { warnings: string[] } {
  const state: AskState = { warnings: [], ...(cache ? { cache } : {}) };
  const judge: Judge = {
    id: `llm:${completer.provider}:${completer.model}`,
    async judge(opinion, fact) {
      const answer = await askValidated(
        completer,
        judgePrompt(opinion, fact),
        judgementAnswer,
        state,
        `judge ${citeLine(fact.source)}`,
      );
      if (!answer) return { ...SKIPPED };
      // An unrelated fact carries no weight, whatever strength the model gave it.
      const strength = answer.stance === "unrelated" ? 0 : answer.strength;
      return { stance: answer.stance, strength, reason: answer.reason };
    },
  };
  return {
    provider: completer.provider,
    model: completer.model,
    warnings: state.warnings,
    judge,
    async summarizeEntity(entity, facts) {
      if (facts.length === 0) return null;
      const answer = await askValidated(
        completer,
        summaryPrompt(entity, facts),
        summaryAnswer,
        state,
        `summary @${entity}`,
      );
      return answer ? answer.summary : null;
    },
    async extractFacts(date, text) {
      const answer = await askValidated(
        completer,
        extractionPrompt(date, text),
        extractionAnswer,
        state,
        `extract ${date}`,
      );
      return answer ? answer.facts.map(toExtractedFact) : null;
    },
    async close() {
      cache?.close();
      await completer.close?.();
    },
  };
}
