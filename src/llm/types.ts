import type { Fact } from "../retain/types.js";

export type Stance = "support" | "contradict" | "unrelated";

/** An opinion as the judge sees it. */
export interface OpinionRef {
  statement: string;
  entities: string[];
  confidence: number;
}

export interface Judgement {
  stance: Stance;
  /** How strong this piece of evidence is, 0..1 (scales the confidence step). */
  strength: number;
  /** One short reason, for the run summary and --explain output. */
  reason?: string;
}

/** Decides whether a fact supports, contradicts or is unrelated to an opinion. */
export interface Judge {
  readonly id: string;
  judge(opinion: OpinionRef, fact: Fact): Promise<Judgement>;
}

/** A fact an LLM extracted from narrative text, before it is written as a Retain line. */
export interface ExtractedFact {
  kind: Fact["kind"];
  entities: string[];
  confidence?: number;
  content: string;
}

/** Optional LLM abilities; `none` provides none of them. */
export interface LlmServices {
  readonly provider: "anthropic" | "local" | "none";
  readonly model?: string;
  judge?: Judge;
  summarizeEntity?(entity: string, facts: Fact[]): Promise<string | null>;
  extractFacts?(date: string, text: string): Promise<ExtractedFact[] | null>;
  close?(): Promise<void>;
}
