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
  /**
   * True when the LLM gave no usable answer (invalid twice, or the API failed): the
   * judgement is a neutral "unrelated" placeholder and the caller may ask another judge.
   */
  skipped?: boolean;
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
  /**
   * Where the fact was said, for facts not taken from the log itself, e.g.
   * `session abc123#L42`; written as a ` (session abc123#L42)` suffix of the Retain line.
   */
  citation?: string;
}

/** Optional LLM abilities; `none` provides none of them. */
export interface LlmServices {
  readonly provider: "anthropic" | "local" | "none";
  readonly model?: string;
  judge?: Judge;
  summarizeEntity?(entity: string, facts: Fact[]): Promise<string | null>;
  extractFacts?(date: string, text: string): Promise<ExtractedFact[] | null>;
  close?(): Promise<void>;
  /**
   * Problems met while answering (invalid answers skipped, API failures), in order, so
   * reflect and session ingestion can report them. The API key never appears here.
   */
  warnings?: string[];
}
