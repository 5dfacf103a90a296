/**
 * The one list of negation and reversal cues (issue 12): reflect's stance judge and
 * recall's evidence stances both read statements through it, so they agree on a pair.
 *
 * Stance cues without an LLM (issue 10, item 2): the words people use when a belief gives
 * way, wavers or is borne out. Data, not code: each list says why its words mean what
 * they mean, and judge.ts says how much each kind weighs. Matching is on whole words
 * (apostrophes kept, case and accents ignored), so "not" never fires inside "notable".
 *
 * Kinds:
 *  - reversal: the holder gives the belief up, or says it was wrong. Contradicts.
 *  - hedge: the holder still says it, but less firmly (a coin toss, a hope, "tight").
 *    Contradicts a firmer belief, weaker than a reversal.
 *  - negation: plain "not"/"never": the sentence states the opposite of a positive
 *    statement. Contradicts only when exactly one side is negated.
 *  - against: an outcome that goes against a plan or a forecast (a date moved, a decision
 *    reversed). Contradicts a belief that it would happen, at a lower weight (it is about
 *    the topic, not the belief itself).
 *  - for: an outcome that bears a plan or forecast out (confirmed, shipped, on track).
 */

import { AFFIRMING_NEGATIONS, CUE_LISTS, type CueKind, NEGATIVE_OUTCOME_WORDS, TENTATIVE_CUES } from "./cue-lists.js";
import { UNAPOSTROPHED_NOT } from "./fillers.js";
import { MONTH_NAME, WEEKDAY_NAME } from "./time-words.js";
import { fold } from "./tokens.js";
import { CHOICE_VERDICTS, DOUBTED_VERDICTS, OUTDONE } from "./verdicts.js";

/** Text as cue matching sees it: lower case, accents folded, words separated by single spaces. */
function normalise(text: string): string {
  return ` ${fold(text)
    .replace(/[’‘]/g, "'")
    .replace(/n't\b/g, "n't")
    .replace(UNAPOSTROPHED_NOT, "$1n't")
    .replace(/[^\p{L}\p{N}'/-]+/gu, " ")
    .trim()} `;
}

export interface CueHit {
  kind: CueKind;
  cue: string;
}

/**
 * The cues of a text, longest phrase first so "no longer" is not also read as "no".
 * A negative cue directly followed (within two words) by a negative-outcome word is
 * dropped and read as a "for" outcome instead ("no longer blocked").
 */
export function findCues(text: string): CueHit[] {
  let hits = CUES_SEEN.get(text);
  if (hits === undefined) {
    if (CUES_SEEN.size >= CUES_KEPT) CUES_SEEN.clear();
    hits = cuesOf(text);
    CUES_SEEN.set(text, hits);
  }
  return [...hits];
}

// Recall judges the same opinion rows on every question, reflect the same facts on every page.
const CUES_SEEN = new Map<string, readonly CueHit[]>();
const CUES_KEPT = 20_000;

/**
 * The text as the single cues read it: normalised, with the idioms that carry a stance of
 * their own taken out (and returned as hits): a doubted verdict, an affirming negation, a
 * counterfactual, a graded doubt, "just not for", "not only", "no longer blocked".
 */
function withoutIdioms(text: string): { rest: string; hits: CueHit[] } {
  let rest = normalise(text);
  const hits: CueHit[] = [];
  // A doubted verdict is a double negation ("not convinced it was a bad idea"): a hedge, not a reversal.
  rest = rest.replace(DOUBTED_VERDICT, (m) => {
    hits.push({ kind: "hedge", cue: m.trim() });
    return " ";
  });
  // "couldn't be happier", "never been more sure", "can't complain": a negation that affirms.
  rest = rest.replace(AFFIRMING, " ");
  // "makes no sense", "doesn't make sense": a complaint said with a "no"; read as one word.
  rest = rest.replace(SENSELESS, " senseless ");
  // "made no difference", "doesn't make any difference": no effect, a complaint with a "no" in it.
  rest = rest.replace(NO_DIFFERENCE, " no-difference ");
  // "would have been fine if we'd had ...": it held only on a condition that was not met.
  rest = rest.replace(COUNTERFACTUAL, (m) => {
    hits.push({ kind: "hedge", cue: m.trim() });
    return " ";
  });
  // "not 100% sure", "not entirely convinced": a doubt with a degree word is still a hedge, not a "not".
  rest = rest.replace(GRADED_DOUBT, (m) => {
    hits.push({ kind: "hedge", cue: m.trim() });
    return " ";
  });
  // "great, just not for logs": the belief holds, only not everywhere (a partial reversal).
  rest = rest.replace(NOT_FOR, (m) => {
    hits.push({ kind: "hedge", cue: m.trim() });
    return " ";
  });
  // "not only fast but cheap": the "not" scopes over "only", the claim itself is affirmed.
  rest = rest.replace(NOT_ONLY, " ");
  // "moved the defense to June", "pushed the launch back to May": a date moved, its object named between.
  rest = rest.replace(MOVED_THING, (_m, verb: string) => {
    hits.push({ kind: "against", cue: verb === "moved" || verb === "moves" ? "moved to" : "pushed back" });
    return " ";
  });
  // "no longer blocked": the pair is good news; take it out before the single cues see it.
  rest = rest.replace(NEGATED_BAD, (m) => {
    hits.push({ kind: "for", cue: m.trim() });
    return " ";
  });
  return { rest, hits };
}

/** The normalised text with the stance idioms taken out: what is left for single words (valence.ts) to read. */
export function cueResidue(text: string): string {
  return withoutIdioms(text).rest;
}

function cuesOf(text: string): CueHit[] {
  const { rest: stripped, hits } = withoutIdioms(text);
  let rest = stripped;
  // Only cues whose first word is in the text can match (removing a cue joins its neighbours,
  // but a phrase that matches after that still has its first word in the text).
  const candidates: number[] = [];
  for (const word of new Set(rest.split(" "))) for (const i of BY_FIRST_WORD.get(word) ?? []) candidates.push(i);
  candidates.sort((a, b) => a - b);
  for (const i of candidates) {
    const { kind, cue } = ALL_CUES[i]!;
    const needle = ` ${cue} `;
    if (!rest.includes(needle)) continue;
    hits.push({ kind, cue });
    rest = rest.split(needle).join(" ");
  }
  return hits;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * A negation, at most one word, then a negative-outcome word: " no longer blocked ", " not really
 * worried "; or a count of none, up to two words, then one: " not one back injury ", " zero incidents ".
 */
const NEGATED_BAD = new RegExp(
  ` (?:(?:no longer|not|never|isn't|aren't|wasn't|weren't|doesn't|don't|hasn't|haven't|hadn't|no) (?:\\S+ )?|(?:not (?:one|a single|one single)|zero) (?:\\S+ ){0,2}?)(?:${NEGATIVE_OUTCOME_WORDS.map(escapeRe).join("|")}) `,
  "g",
);

/**
 * A thing's date moved, the thing named between the verb and "to": " moved the defense to ",
 * " pushed our launch back to ". Only to a day, a month or a week, so "moved the sofa to the
 * hall" is not a date. The plain "moved to" / "pushed back" are single cues.
 */
const MOVED_THING =
  / (moved|moves|pushed|bumped|shifted) (?:the |our |my |his |her |their )?(?:[\p{L}\p{N}-]+ ){1,2}(?:back |out )?to (?=(?:next |the )?(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month|spring|summer|autumn|fall|winter|q[1-4]|\d))/gu;

/** A doubt, up to five words of subject, a copula, then a verdict: " not sure kafka was wrong ". */
const DOUBTED_VERDICT = new RegExp(
  ` (?:not convinced|not so sure|not sure|unconvinced|not certain|doubt|doubts) (?:that )?(?:\\S+ ){0,5}?(?:was|is|were|has been|had been|would be|will be) (?:${DOUBTED_VERDICTS.map(escapeRe).join("|")}) `,
  "g",
);

/** A doubt graded by a degree word: " not 100 sure " (the % is gone by now), " not entirely convinced ". */
const GRADED_DOUBT =
  / (?:not|never) (?:a )?(?:100|hundred percent|entirely|fully|completely|totally|quite|absolutely|that|too|terribly|really|super|all that|overly) (?:sure|certain|convinced|confident)(?: anymore| now)? /g;

/** A look back on an unmet condition: " would have been fine if we'd ", " could have hit it if design had ". */
const COUNTERFACTUAL = / (?:would|could|might)(?: not|n't)? have (?:\S+ ){0,5}?if (?:\S+ ){0,4}?(?:had|\S+'d) /g;

const ONE_COUNTERFACTUAL = new RegExp(COUNTERFACTUAL.source);

/** Hindsight praise of what was not chosen: " would have been faster ", " should have gone with ". */
const HINDSIGHT_PRAISE =
  / (?:(?:would|could|might) have been (?:(?:a|the|much|way|far|so|a lot|probably|clearly|definitely) )*(?:better|faster|safer|easier|cheaper|simpler|quicker|smarter|saner|wiser)|should have (?:gone with|picked|chosen|used|stuck with|started with|bet on)|wish (?:we|i) (?:had|'d) (?:gone with|picked|chosen|used|stuck with)) /;

const VERDICT = new RegExp(` (?:${CHOICE_VERDICTS.map(escapeRe).join("|")}) `);

/**
 * A statement that looks back on a choice: a verdict on it ("Pulumi was the right call"),
 * hindsight about it ("React would have been the safer pick"), or a counterfactual ("Kafka
 * would have been fine if we'd had a second infra person"). Its subject is the choice's name.
 */
export function looksBack(text: string): boolean {
  const t = normalise(text);
  return VERDICT.test(t) || HINDSIGHT_PRAISE.test(t) || ONE_COUNTERFACTUAL.test(t);
}

/** Hindsight praise of a thing ("rewriting it in Go would have been faster"): the thing is preferred over what was chosen. */
export function praisesInHindsight(text: string): boolean {
  return HINDSIGHT_PRAISE.test(normalise(text));
}

/** The same phrases on the text as written: what comes before "would have been better" is praised. */
const PRAISED_BEFORE =
  /\b(?:would|could|might)\s+have\s+been\s+(?:(?:a|the|much|way|far|so|a lot|probably|clearly|definitely)\s+)*(?:better|faster|safer|easier|cheaper|simpler|quicker|smarter|saner|wiser)\b/iu;
/** ... and what comes after "should have gone with". */
const PRAISED_AFTER =
  /\b(?:should\s+have|wish\s+(?:we|I)\s+(?:had|['’]d))\s+(?:gone with|picked|chosen|used|stuck with|started with|bet on)\b/iu;

/** The part of a text naming what it praises in hindsight ("rewriting the parser in Go"), as written. */
export function praisedInHindsight(text: string): string | undefined {
  if (!praisesInHindsight(text)) return undefined;
  const before = PRAISED_BEFORE.exec(text);
  if (before) return text.slice(0, before.index);
  const after = PRAISED_AFTER.exec(text);
  return after ? text.slice(after.index + after[0].length) : undefined;
}

/** A comparison: " better ", " faster ", " beats ", " miles ahead ", " -er than ". */
const COMPARISON =
  / (?:better|faster|cheaper|simpler|easier|safer|nicer|cleaner|quicker|superior|beats?|ahead|outperforms?|\S+er than) /;

/** The text compares or ranks something ("Pulumi beats Terraform", "not only is Pulumi faster"). */
export function compares(text: string): boolean {
  return COMPARISON.test(normalise(text));
}

/** A change talked about, not made: "switching off X would be a step back", "if we moved off X", "considering dropping X". */
const HYPOTHETICAL =
  /\b(?:would|could|might|'d)(?:n't| not)?(?: \w+ly)? (?:be|mean|feel|cost|hurt|set us back)\b|\bif (?:we|i|they|you) (?:ever |really |actually )?(?:switch|switched|move|moved|migrate|migrated|drop|dropped|ditch|ditched|leave|left|replace|replaced)\b|\b(?:thinking about|considering|toying with|talk of|the idea of)\b/iu;

/** The text talks about a switch or a change that has not been made. */
export function isHypothetical(text: string): boolean {
  return HYPOTHETICAL.test(text.replace(/[’‘]/g, "'"));
}

/**
 * A statement about when or whether something happens (a forecast, a deadline, a plan's
 * fate): it names a time ("in May", "by Q2", "the 14th") or says something will, can or
 * should be done in time ("ships", "realistic", "on track"). What only a date change bears on.
 */
const FORECAST = new RegExp(
  `\\b(?:${MONTH_NAME}|${WEEKDAY_NAME}|q[1-4]|h[12]|\\d{1,2}(?:st|nd|rd|th)|(?:19|20)\\d\\d|eo[dwmqy]|deadline|due(?! to)|date|schedule[ds]?|on time|in time|on track|by the end|next (?:week|month|quarter|year|sprint)|this (?:week|month|quarter|year|sprint)|tomorrow|soon|launch(?:es|ed|ing)?|ship(?:s|ped|ping)?|releas(?:e|es|ed|ing)|deliver(?:s|ed|ing|y)?|land(?:s|ed|ing)?|happen(?:s|ed|ing)?|finish(?:es|ed|ing)?|cut(?:s|ting)? ?over|go(?:es)? live|ma(?:ke|kes|de) it|will|won't|going to|gonna|realistic|unrealistic|doable|achievable|feasible|likely|unlikely)\\b`,
  "iu",
);

/** The text forecasts or plans something in time (see FORECAST). */
export function isForecast(text: string): boolean {
  return FORECAST.test(text.replace(/[’‘]/g, "'"));
}

/** The tentative cue a text holds its view with ("starting to think", "kinda"), if any: see TENTATIVE_CUES. */
export function tentativeCue(text: string): string | undefined {
  const t = normalise(text);
  return TENTATIVE_CUES.find((c) => t.includes(` ${c} `));
}

/**
 * A question written without its "?", as dictation and hurried notes write one: an auxiliary
 * before its subject at the start ("should we do a loyalty card", "is it worth a second grinder",
 * "do we even need sunday staff"), or a question word before one ("how do we fix the till").
 * "did it again", "do it properly" and "would you believe it, ..." are said, not asked. Chat leaves
 * the auxiliary out too: "anyone know if we still need X", "anybody tried the new build", "anybody rate the new
 * connectors", "any idea why". Indian English asks with "doubt": "I have one doubt whether the scooter is too
 * heavy" (as "a question whether").
 */
const UNMARKED_QUESTION =
  /^\s*(?:(?:um+|uh+|er+m?|so|ok|okay|hmm+|and|but|also|right)\s*,?\s+)*(?:(?:what|why|how|where|when|who|which)\s+)?(?!do\s+it\b|would\s+you\s+believe\b)(?:is|are|was|were|isn't|aren't|do|does|did|don't|doesn't|should|shouldn't|shall|can|could|would|will|won't|have|has|haven't|hasn't|must|might)\s+(?:we|i|you|they|he|she|there|anyone|anybody|someone|people|it(?!\s+(?:again|twice|already|anyway|properly|myself|ourselves|yourself|your|my|our|all|right|before|for|by|with|without)\b))\b|^\s*(?:(?:um+|so|ok|okay|also|and|but|hey)\s*,?\s+)*(?:anyone|anybody|someone|somebody)\s+(?:know|tried|seen|remember|got|else|rate|recommend|used|use|using)\b|^\s*any\s+(?:idea|ideas|thoughts)\b|^\s*(?:i|we)\s+(?:have|had|still have)\s+(?:a|one|some|small|a small|one small)\s+(?:doubt|doubts|query|question)\s+(?:whether|if|about)\b/iu;

/** The text asks rather than states ("is Postgres really the bottleneck?"): no belief of its own. */
export function isQuestion(text: string): boolean {
  if (/\?["'”’)\]]*\s*$/u.test(text)) return true;
  // A writer who types "?" ends the question with it: without any, the word order says it.
  return !text.includes("?") && UNMARKED_QUESTION.test(text.replace(/[’‘]/g, "'"));
}

/**
 * A belief put as a question and answered at once: "handovers too long? not anymore, Helen cut
 * them", "Lidl still the best? yep". Returns the question: what the answer is about.
 */
const ANSWERED =
  /^\s*([^?]{3,120}?)\s*\?+\s*(?:not anymore|no longer|nope|nah|no|not really|not at all|not now|yes|yep|yeah|still|absolutely|definitely|totally|of course)\b(?!\s*\?)/iu;

/** The question a text answers itself ("X? not anymore, ..."), else undefined. */
export function answeredQuestion(text: string): string | undefined {
  if (isQuestion(text)) return undefined;
  return ANSWERED.exec(text)?.[1];
}

/**
 * A plan or an intention, no belief: "going to try a rota where ...", "plan to ask Dev about
 * it", "let's pilot it in May", "will look into the pricing". Its subject is the writer (or
 * none): "the launch will move conversions" is a forecast, not a plan.
 */
const PLAN =
  /^\s*(?:(?:(?:i|we|i'm|we're|i am|we are|i'd like|we'd like)\s+)?(?:going to|gonna|plan to|planning to|intend to|want to|will|about to|need to|have to|let's|lets|todo:?|to do:?|next step:?|next:)|i'll|we'll)\s+(?:try|trial|test|pilot|experiment with|set up|start|book|schedule|ask|talk to|look into|check|write|draft|run|propose|pitch|put together|sync with|follow up|reach out|email|ping|call|prototype|spike|sketch|review|move|drop|swap|cancel|rename|order|hire|bring in|add)\b/iu;

/** The text states a plan or an intention of the writer's, not a belief. */
export function isPlan(text: string): boolean {
  return PLAN.test(text.replace(/[’‘]/g, "'"));
}

/** Negations that affirm: the listed idioms, "couldn't be happier", "never been more sure", "can't imagine anything but". */
/** Making no sense, however it is said: a complaint whose "no" or "not" turns nothing round. */
const SENSELESS =
  / (?:makes?|made|making) (?:no|zero|little|less and less) sense(?= )| (?:doesn't|does not|didn't|did not|don't|do not|won't|never) (?:really |actually )?makes? (?:any |much )?sense(?= )/g;

/** Making no difference, however it is said: like SENSELESS, a complaint whose "no" turns nothing round. */
const NO_DIFFERENCE =
  / (?:makes?|made|making) (?:no|zero|little) (?:real |actual )?difference(?= )| (?:doesn't|does not|didn't|did not|don't|do not|won't|never) (?:really |actually )?makes? (?:any|much) (?:real )?difference(?= )/g;

const AFFIRMING = new RegExp(
  [
    ...AFFIRMING_NEGATIONS.map((p) => ` ${escapeRe(p)}(?= )`),
    // "X beats Y, not even close": the rival is nowhere near, which insists; "not even close to done" is a "not".
    " not even (?:close|a contest|in the same league)(?= )(?! to )",
    " (?:couldn't|could not|can't|cannot|never|wouldn't|would not)(?: have)?(?: be| been)? (?:any )?(?:happier|prouder|more (?:sure|certain|convinced|confident|excited))(?= )",
    " (?:can't|cannot|couldn't) imagine(?= (?:\\S+ ){0,6}?(?:any(?:thing|where|one) but|any(?:thing|where|one) other than|any(?:thing|where|one) else|going back|life without) )",
    OUTDONE,
  ].join("|"),
  "g",
);

/** A belief narrowed: " just not for ", " but not in ", " except not when ". */
const NOT_FOR = / (?:just|but|only|except|though|although|simply) not (?:for|in|on|with|when|at|as) /g;

/** "not only", "not just", "not merely": an additive, not a negation of what follows. */
const NOT_ONLY = / not (?:only|just|merely|simply) /g;

/** Every cue, longest first, so "no longer" is taken before "no". */
const ALL_CUES = CUE_LISTS.flatMap((list) => list.cues.map((cue) => ({ kind: list.kind, cue }))).sort(
  (a, b) => b.cue.length - a.cue.length || (a.cue < b.cue ? -1 : a.cue > b.cue ? 1 : 0),
);

/** Indices into ALL_CUES by a cue's first word. */
const BY_FIRST_WORD = new Map<string, number[]>();
ALL_CUES.forEach(({ cue }, i) => {
  const first = cue.split(" ")[0]!;
  BY_FIRST_WORD.set(first, [...(BY_FIRST_WORD.get(first) ?? []), i]);
});

/** Single words of the belief-level cues: kept out of topic tokens so "no longer believes X" still matches "X". */
export const CUE_WORDS: ReadonlySet<string> = new Set([
  ...CUE_LISTS.filter((l) => l.kind !== "against" && l.kind !== "for").flatMap((l) =>
    l.cues.filter((c) => !c.includes(" ")),
  ),
  "longer",
  "anymore",
]);
/**
 * The polarity of a statement: -1 when it carries a reversal or negation cue ("doubts X",
 * "does not think X", "accepted the new date; no longer believes X"), +1 otherwise. A
 * negated doubt ("no longer doubts X") is no cue of these kinds (above), so it is +1.
 */
export function polarity(cues: readonly CueHit[]): 1 | -1 {
  return cues.some((c) => c.kind === "reversal" || c.kind === "negation") ? -1 : 1;
}

/** The polarity of a text: -1 when it carries a reversal or negation cue, +1 otherwise. */
export function textPolarity(text: string): 1 | -1 {
  return polarity(findCues(text));
}

/** Where the phrase naming one side of a switch ends: a preposition, a clause, the sentence. */
const SIDE_END =
  /\s+(?:for|in|on|at|as|because|since|after|before|due|when|and|but|so|which|that|to|with|by|over|than|would|could|might|will|is|was)\s.*$|(?:[,;:.!?](?=\s|$)|[()—–]).*$/u;
const side = (s: string) => s.replace(SIDE_END, "").trim();
const VERB = "(?:switch|swap|mov|migrat|port|chang|transition)\\w*";
/** What a switch gives up and what it takes: "switched from X to Y", "replaced X with Y", "moved off X", "Y over X". */
const SWITCHES: readonly [RegExp, number, number][] = [
  [new RegExp(`\\b${VERB}\\b.*?\\bfrom\\s+(.+?)\\s+(?:to|for)\\s+(.+)$`, "iu"), 1, 2],
  [/\b(?:replac\w*|swapp\w*|swap)\s+(.+?)\s+(?:with|by|for)\s+(.+)$/iu, 1, 2],
  [new RegExp(`\\b${VERB}\\b.*?\\b(?:off|away from|out of)\\s+(.+)$`, "iu"), 1, 0],
  [/\b(?:ditch\w*|dump\w*|ripp?\w* out|tore out|tear out|sunset\w*|retir\w*|phas\w* out)\s+(.+)$/iu, 1, 0],
  [/\bprefer\w*\s+(.+?)\s+(?:over|to)\s+(.+)$/iu, 2, 1],
  // A comparison takes its subject over what it is compared with: "Datadog is nicer than Grafana", "X beats Y".
  [
    /^(.+?)\s+(?:(?:is|are|was|were|feels|seems)\s+)?(?:(?:a|an|much|way|far|a lot|so much|a bit|clearly)\s+)*(?:better|nicer|faster|cheaper|simpler|easier|safer|cleaner|superior|saner)\s+(?:\S+\s+){0,3}?than\s+(.+)$/iu,
    2,
    1,
  ],
  [/^(.+?)\s+(?:beats|trumps|outperforms|outclasses)\s+(.+)$/iu, 2, 1],
];

/**
 * The side a sentence gives up, and the side it takes, when it reports a switch: "switched
 * the event bus from Kafka to Postgres" gives up "Kafka" and takes "Postgres". A belief
 * about the side given up is contradicted by the switch, though the sentence has no "not".
 */
export function switchSides(text: string): { lost: string; kept?: string } | undefined {
  // Reflect asks once per (opinion, fact) pair: the same facts again and again.
  if (SIDES_SEEN.has(text)) return SIDES_SEEN.get(text);
  if (SIDES_SEEN.size >= CUES_KEPT) SIDES_SEEN.clear();
  const sides = sidesOf(text);
  SIDES_SEEN.set(text, sides);
  return sides;
}

const SIDES_SEEN = new Map<string, { lost: string; kept?: string } | undefined>();

/** A switch is said in a sentence, not in a pasted log: the patterns look at the start only (bounded work). */
const SIDES_SCAN_CHARS = 600;

function sidesOf(text: string): { lost: string; kept?: string } | undefined {
  const head = text.slice(0, SIDES_SCAN_CHARS);
  for (const [re, lost, kept] of SWITCHES) {
    const m = re.exec(head);
    if (!m) continue;
    const l = side(m[lost]!);
    if (l === "") continue;
    const k = kept > 0 ? side(m[kept]!) : "";
    return k === "" ? { lost: l } : { lost: l, kept: k };
  }
  return undefined;
}
