import type { FactKind } from "../retain/types.js";
import type { QuestionKind } from "./intent.js";

/** A fact kind, or `note`: lines of a log or page that are not a Retain fact. */
export type ResultKind = FactKind | "note";

export interface EvidenceRef {
  /** `path#Lline` of the fact that supports or contradicts the opinion. */
  source: string;
  stance: "support" | "contradict";
}

/** Which arm found a result, at which rank (1-based) and with which arm score. */
export interface ArmHit {
  arm: string;
  rank: number;
  score: number;
}

export interface RecallResult {
  kind: ResultKind;
  /** The log's date (YYYY-MM-DD); absent for undated files (MEMORY.md, bank pages). */
  timestamp?: string;
  entities: string[];
  content: string;
  /**
   * `path#Lstart-Lend` (one line: `path#Lstart-Lstart`). A judged opinion cites its region
   * on bank/opinions.md (where its confidence and evidence are written); a fact, its log line.
   */
  source: string;
  score: number;
  confidence?: number;
  /**
   * A judged opinion: where it stands now against when first stated (holding, weakened,
   * strengthened, reversed) and its path, so a belief given up is never read as current.
   */
  status?: string;
  trajectory?: string;
  evidence?: EvidenceRef[];
  /** Set when `evidence` lists only some of the opinion's links (the newest of each stance): how many it has. */
  evidenceTotal?: number;
  /** Set when the budget cut this result's content short (at a line end, or mid-line as a last resort). */
  truncated?: "lines" | "chars";
  /** With `explain`: the arms that found this result. */
  arms?: ArmHit[];
}

export interface RecallIntent {
  entities: string[];
  window?: { from?: string; to?: string; text: string };
  kinds: QuestionKind[];
}

export interface RecallResponse {
  query: string;
  intent: RecallIntent;
  results: RecallResult[];
  /** The embedding provider of the vector arm, or "none". */
  provider: string;
  model?: string;
  fallback?: string;
  /** With `explain`: fusion method, words searched, and the arms that ran with their sizes. */
  explain?: {
    fusion: string;
    terms: string[];
    /** The ranking profile used (chat transcripts or plain logs). */
    profile: string;
    arms: { arm: string; weight: number; hits: number; ms: number }[];
  };
}

/** One thing an arm can return: a fact, or a few lines of a file. */
export interface Candidate {
  /** Identity for fusion: `fact:<path>#<line>`, `lines:<path>#<start>-<end>` or `opinion:<op-id>`. */
  key: string;
  kind: ResultKind;
  path: string;
  startLine: number;
  endLine: number;
  date?: string;
  entities: string[];
  content: string;
  confidence?: number;
  factId?: string;
  /** A judged opinion of bank/opinions.md (see opinions.ts), by its region name. */
  opinionId?: string;
  status?: string;
  trajectory?: string;
  evidence?: EvidenceRef[];
}

/** A ranked list from one retrieval arm; items best first. */
export interface ArmList {
  arm: string;
  weight: number;
  items: { cand: Candidate; score: number }[];
}
