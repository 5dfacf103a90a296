/** The four Retain fact types of DESIGN.md 1.1. */
export type FactKind = "world" | "experience" | "opinion" | "observation";

export const KIND_BY_LETTER: Readonly<Record<string, FactKind>> = {
  W: "world",
  B: "experience",
  O: "opinion",
  S: "observation",
};

export const LETTER_BY_KIND: Readonly<Record<FactKind, string>> = {
  world: "W",
  experience: "B",
  opinion: "O",
  observation: "S",
};

/** Where a fact or diagnostic came from: workspace-relative path with `/` separators, 1-based line. */
export interface SourceRef {
  path: string;
  line: number;
}

export interface Fact {
  /** Stable id derived from date + normalised content (not the line). */
  id: string;
  kind: FactKind;
  /** Entity slugs, without `@`, in order of first appearance, deduplicated. */
  entities: string[];
  /** Only for opinions: explicit `O(c=...)` or the configured default. */
  confidence?: number;
  /** An opinion whose line gave no `c=`: `confidence` is the configured default. */
  defaultConfidence?: true;
  content: string;
  /** The log's date, YYYY-MM-DD. */
  date: string;
  validFrom?: string;
  validTo?: string;
  source: SourceRef;
  /** True when the fact came from a Retain section that membank extracted (marked as such). */
  extracted?: boolean;
}

export interface Diagnostic {
  path: string;
  line: number;
  reason: string;
}

export interface RetainResult {
  facts: Fact[];
  diagnostics: Diagnostic[];
}

/** The facts of a set of daily logs, with how many logs were read and which had no Retain section. */
export interface LogsRead extends RetainResult {
  files: number;
  /** Daily logs (paths, sorted) without a `## Retain` section: no facts can come from them. */
  noRetain: string[];
}
