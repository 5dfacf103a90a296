import type { Fact } from "../retain/types.js";
import { LETTER_BY_KIND } from "../retain/types.js";
import { extractionJsonSchema, judgementJsonSchema, summaryJsonSchema } from "./schemas.js";
import type { OpinionRef } from "./types.js";

/** A provider-neutral request: one system text, one user text, the JSON shape to answer in. */
export interface ChatRequest {
  /** Short name of the task, for warnings ("judge", "summary", "extract"). */
  task: string;
  system: string;
  user: string;
  jsonSchema: object;
  maxTokens?: number;
}

const JSON_ONLY = "Answer with one JSON object only, no prose and no code fence, matching this JSON schema:";

function schemaLine(schema: object): string {
  return `${JSON_ONLY}\n${JSON.stringify(schema)}`;
}

function factLine(fact: Fact): string {
  const who = fact.entities.map((e) => `@${e}`).join(" ");
  const c = fact.confidence === undefined ? "" : `(c=${fact.confidence.toFixed(2)})`;
  return `[${fact.date}] ${LETTER_BY_KIND[fact.kind]}${c}${who ? ` ${who}` : ""}: ${fact.content}`;
}

export function judgePrompt(opinion: OpinionRef, fact: Fact): ChatRequest {
  return {
    task: "judge",
    system: [
      "You judge evidence for a personal memory bank.",
      "Given an opinion and one new fact, decide whether the fact supports the opinion, contradicts it, or is unrelated to it.",
      "strength (0..1) is how strongly this single fact bears on the opinion: 1 = decisive, 0.5 = suggestive, near 0 = barely.",
      "An unrelated fact has strength 0. Give a reason of at most one short sentence.",
      schemaLine(judgementJsonSchema),
    ].join("\n"),
    user: [
      // The opinion's current confidence is left out on purpose: the stance of a fact does not
      // depend on it, and leaving it out keeps the answer (and its cache entry) the same
      // whether reflect runs incrementally or over all days.
      `Opinion (entities: ${opinion.entities.map((e) => `@${e}`).join(" ") || "none"}):`,
      opinion.statement,
      "",
      "New fact:",
      factLine(fact),
    ].join("\n"),
    jsonSchema: judgementJsonSchema,
    maxTokens: 300,
  };
}

/** At most this many facts go into a summary prompt (newest first), to bound its size. */
export const SUMMARY_MAX_FACTS = 60;

export function summaryPrompt(entity: string, facts: Fact[]): ChatRequest {
  const newest = [...facts]
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .slice(0, SUMMARY_MAX_FACTS);
  return {
    task: "summary",
    system: [
      "You write the summary line of an entity page in a personal memory bank.",
      "Write 1 to 3 plain sentences about the entity, using only the facts given; prefer recent facts when they conflict.",
      "No Markdown, no lists, no speculation, no dates unless they matter.",
      schemaLine(summaryJsonSchema),
    ].join("\n"),
    user: [`Entity: @${entity}`, "", "Facts (newest first):", ...newest.map(factLine)].join("\n"),
    jsonSchema: summaryJsonSchema,
    maxTokens: 400,
  };
}

export function extractionPrompt(date: string, text: string): ChatRequest {
  return {
    task: "extract",
    system: [
      "You extract durable facts from one day of an AI agent's memory log, for a personal memory bank.",
      "Each fact has a kind:",
      "  W = objective fact about the world (people, places, projects, dates);",
      "  B = something the agent itself did or lived through, written in the first person (I ...);",
      "  O = an opinion or preference (someone's or the agent's), with confidence 0..1 that it holds;",
      "  S = an observation or summary of the day.",
      "Rules:",
      "- Each content is ONE self-contained sentence that makes sense without the log: no 'he', 'it', 'today', 'yesterday';",
      `  name people and things, and turn relative dates into absolute ones (the log's date is ${date}).`,
      "- entities: the names of the people, projects, places or things the fact is about, without @ (e.g. Priya, warelay).",
      "- confidence: a number only for O facts, null for W, B and S.",
      "- Keep only facts worth remembering next week or next year; skip chit-chat. No duplicates. An empty list is fine.",
      "- Do not invent anything that is not in the log.",
      schemaLine(extractionJsonSchema),
    ].join("\n"),
    user: `Memory log of ${date}:\n\n${text}`,
    jsonSchema: extractionJsonSchema,
    // Bounds a local model that will not stop; remote providers also cap it by config.
    maxTokens: 4096,
  };
}

/** The note added to a retried request, so the model can fix what was wrong. */
export function retryNote(reason: string): string {
  return `\n\nYour previous answer was rejected (${reason}). ${JSON_ONLY.replace(" matching this JSON schema:", ".")}`;
}
