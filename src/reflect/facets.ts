import { porterStem } from "../analysis/stem.js";
import { STOP_WORDS } from "../analysis/stopwords.js";
import { byPlace } from "../markdown/order.js";
import type { Fact } from "../retain/types.js";
import { cmp, factPlace } from "./format.js";
import { VAGUE_WORDS } from "./text.js";

/**
 * Facets of an entity: the things a fact can be "the latest word" on (a contract, a role, a
 * date), so a later fact on the same facet supersedes an earlier one ("contract extended
 * to June" after "contract ends in March"). Deterministic data, no LLM: each facet lists
 * the word stems (facetTokens' form) that put a fact on it, in priority order.
 *
 * A `single` facet has one current value per entity (one contract, one home, one role):
 * any later fact on it supersedes. Other facets hold several things at once (two bugs,
 * two meetings): a later fact supersedes an earlier one only when both also share a word
 * that names the thing (not one of the facet's `generic` words), e.g. "parser".
 */
export interface FacetRule {
  name: string;
  single: boolean;
  /** Stems that put a fact on this facet. */
  cues: readonly string[];
  /** Cues that say what happened, not which thing: sharing only these is not the same thing. */
  generic?: readonly string[];
  /** Why this facet exists (documentation for reviewers). */
  why: string;
  /**
   * A fact is on this facet only when it carries a date (its validity) or one of the
   * `generic` cues: "wrote up the cutover checklist" names the cutover but says nothing of its date.
   */
  dated?: boolean;
}

/** Words of a bug or blocker report, and of its fix or new status. */
const PROBLEM_WORDS = [
  "bug",
  "crash",
  "broken",
  "outage",
  "incident",
  "regression",
  "error",
  "fixed",
  "fix",
  "resolved",
  "patched",
  "failing",
  "blocked",
  "unblocked",
];

export const FACETS: readonly FacetRule[] = [
  {
    name: "contract",
    single: true,
    cues: [
      "contract",
      "lease",
      "visa",
      "subscription",
      "licence",
      "license",
      "renewal",
      "renewed",
      "extended",
      "expire",
    ],
    why: "an agreement with an end date: the newest statement of its term is the current one",
  },
  {
    name: "role",
    single: true,
    cues: [
      "role",
      "job",
      "title",
      "promoted",
      "hired",
      "joined",
      "resigned",
      "position",
      "employer",
      "manager",
      "lead",
    ],
    why: "what someone does: a new role replaces the old one",
  },
  {
    name: "home",
    single: true,
    cues: ["live", "living", "relocated", "relocating", "relocate", "address", "flat", "apartment"],
    why: "where someone lives: a move replaces the old place",
  },
  {
    name: "meeting",
    single: false,
    cues: ["meeting", "1:1", "call", "standup", "sync", "review", "interview", "appointment"],
    generic: ["meeting", "call", "moved", "cancelled", "canceled"],
    why: "a recurring or planned meeting: the latest arrangement is the current one",
  },
  {
    name: "schedule",
    single: false,
    cues: [
      "deadline",
      "due",
      "launch",
      "release",
      "cutover",
      "go-live",
      "milestone",
      "date",
      "postponed",
      "rescheduled",
      "slipped",
      "delayed",
      "moved",
      "pushed",
      "planned",
      "scheduled",
    ],
    generic: [
      "date",
      "postponed",
      "rescheduled",
      "slipped",
      "delayed",
      "moved",
      "pushed",
      "planned",
      "scheduled",
      "due",
    ],
    why: "a date of a thing (a launch, a cutover, a deadline): a moved date replaces the old one",
    dated: true,
  },
  {
    name: "problem",
    single: false,
    cues: PROBLEM_WORDS,
    // The problem words say nothing about which problem: only the other words do.
    generic: PROBLEM_WORDS,
    why: "a bug or blocker: a fix or new status of the same thing replaces the report",
  },
  {
    name: "health",
    single: true,
    cues: ["sick", "ill", "flu", "injured", "hospital", "surgery", "recovered", "recovering"],
    why: "how someone is: the newest report is the current one",
  },
];

/** Lower-case word stems of a text, stop words dropped (`1:1` and `go-live` stay whole). */
export function facetTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text
    .normalize("NFC")
    .toLowerCase()
    .replace(/’/g, "'")
    .split(/[^\p{L}\p{N}:'-]+/u)) {
    const word = raw.replace(/^[:'-]+|[:'-]+$/g, "").replace(/'s$/, "");
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    out.add(porterStem(word));
  }
  return out;
}

/** Words that never name the thing of a facet (beyond the stop words). */
const VAGUE = stems(VAGUE_WORDS);

/** Word lists are written as words; tokens are stems (the index's Porter stemmer). */
function stems(words: readonly string[]): Set<string> {
  return new Set(words.map((w) => porterStem(w.toLowerCase())));
}

export interface FacetState {
  /** Facet name per fact id (facts on no facet are absent). */
  facet: Map<string, string>;
  /** Fact id -> the fact that supersedes it. */
  supersededBy: Map<string, Fact>;
}

/** The facets with their word lists as stems, once. */
const COMPILED = FACETS.map((rule) => ({ rule, cues: stems(rule.cues), generic: stems(rule.generic ?? []) }));

/**
 * Facets and supersession of one entity's facts (opinions are judged elsewhere). `names`
 * are entity names, left out of the thing-words (every fact of Mara's page names Mara).
 * Pure; `facts` in any order.
 */
/** The facet rule a fact's content is on (its index in FACETS) and its stems; undefined when none. */
export function factFacet(content: string): { rule: number; tokens: Set<string> } | undefined {
  const tokens = facetTokens(content.replace(/@/g, " "));
  const rule = COMPILED.findIndex((r) => [...r.cues].some((c) => tokens.has(c)));
  return rule < 0 ? undefined : { rule, tokens };
}

/** Derives facts' facets; fact-memo.ts keeps them across runs. */
export interface FacetSource {
  facet(fact: Fact): { rule: number; tokens: Set<string> } | undefined;
}

const direct: FacetSource = { facet: (f) => factFacet(f.content) };

export function facetState(
  facts: readonly Fact[],
  names: readonly string[] = [],
  source: FacetSource = direct,
): FacetState {
  const nameTokens = new Set(names.flatMap((n) => [...facetTokens(n)]));
  const byDate = [...facts]
    .filter((f) => f.kind !== "opinion")
    .sort((a, b) => cmp(a.date, b.date) || byPlace(factPlace(a), factPlace(b)));
  const facet = new Map<string, string>();
  const supersededBy = new Map<string, Fact>();
  // Per facet: the current (latest) facts, each with its thing-words.
  const current = new Map<string, { fact: Fact; things: Set<string> }[]>();
  for (const f of byDate) {
    const on = source.facet(f);
    if (!on) continue;
    const { tokens } = on;
    const { rule, generic } = COMPILED[on.rule]!;
    if (rule.dated && f.validFrom === undefined && f.validTo === undefined && ![...generic].some((g) => tokens.has(g)))
      continue;
    facet.set(f.id, rule.name);
    const things = new Set([...tokens].filter((t) => !generic.has(t) && !nameTokens.has(t) && !VAGUE.has(t)));
    const list = current.get(rule.name) ?? [];
    const keep: typeof list = [];
    for (const c of list) {
      const same = rule.single || [...things].some((t) => c.things.has(t));
      // Same day, same facet: both stand (a day's log may list two things at once).
      if (same && c.fact.date < f.date) supersededBy.set(c.fact.id, f);
      else keep.push(c);
    }
    keep.push({ fact: f, things });
    current.set(rule.name, keep);
  }
  return { facet, supersededBy };
}
