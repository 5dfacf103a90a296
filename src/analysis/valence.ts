/**
 * Which way a statement judges its subject, from common evaluative words (pure). Two
 * statements that judge the same thing with words of opposite sign disagree though
 * neither says "not": "the rota is unfair" / "the rota is fine now", "the design system
 * feels clunky" / "it is pretty smooth". The words themselves are data in valence-words.ts.
 */
import { CONCESSION_CUES, LAST_WORD_TAKEBACKS, RECANTING_CUES } from "./cue-lists.js";
import { type CueHit, cueResidue, findCues, polarity } from "./cues.js";
import { MISHAPS } from "./mishaps.js";
import { STOP_WORDS } from "./stopwords.js";
import { NEGATIVE, POSITIVE, SCALE_NOUNS, SCALES } from "./valence-words.js";

/** Every valence phrase with its sign, longest first so "a step back" is read before "back". */
const PHRASES = [...POSITIVE.map((p) => [p, 1] as const), ...NEGATIVE.map((p) => [p, -1] as const)].sort(
  (a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1),
);

/**
 * Reversal cues that take the holder's earlier belief back as a whole ("was wrong", "changed her
 * mind"): they contradict the belief whichever way it was worded, "the migration is a mistake" too.
 */
export const RECANTING: ReadonlySet<string> = new Set(RECANTING_CUES);

/** Reversal cues that concede what follows: they assert their clause (cue-lists.ts). */
const CONCESSIONS: ReadonlySet<string> = new Set(CONCESSION_CUES);

/** The first recanting cue among `cues`. */
export function recanting(cues: readonly CueHit[]): CueHit | undefined {
  return cues.find((c) => c.kind === "reversal" && RECANTING.has(c.cue));
}

/**
 * A statement that corrects itself ("the till is fine now. scratch that, it crashed again"):
 * the take-back points at what the statement said just before it, so its word is what follows.
 * Returns what follows, when something was said before the take-back and something after it;
 * a take-back that opens the statement points at an earlier one (judge.ts reads that).
 */
const SELF_CORRECTION = new RegExp(
  `^(.*?\\p{L}.*?\\p{L}.*?)[\\s,.;:!…—–-]+(?:${[...LAST_WORD_TAKEBACKS].join("|")})\\b[\\s,.;:!…—–-]*(.*\\p{L}.*)$`,
  "iu",
);

export function correctedTo(text: string): string | undefined {
  return selfCorrection(text)?.to;
}

/** A self-correction's two parts: what was taken back and what follows (see correctedTo). */
export function selfCorrection(text: string): { taken: string; to: string } | undefined {
  const m = SELF_CORRECTION.exec(text.replace(/[’‘]/g, "'"));
  if (m === null || m[1]!.trim().split(/\s+/u).length < 2) return undefined;
  // "scratch that about Python, R wins": an "about" names what is taken back; judge.ts reads it whole.
  if (/^about\b/iu.test(m[2]!)) return undefined;
  return { taken: m[1]!.trim(), to: m[2]!.trim() };
}

/** Where a sentence splits into clauses that each judge something. */
const CLAUSE = /[,;:()]|\s[—–-]\s|\s(?:but|though|although|while|whereas)\s/iu;

/** Set phrases with an evaluative word that judge nothing ("to be fair", "hard to say", "best case", "the rubbish collection"). */
const NOT_EVALUATIVE =
  / (?:crawling with|rubbish (?:collection|collections|bins?|bags?|day|tip|dump)|(?:the|our|my) rubbish (?:out|in)|to be fair|hard to say|hard deadline|best case|at best|for good|fast forward|(?:could|might|may) be wrong|too (?:early|soon|close) to (?:tell|say|call)) /g;

/**
 * "too" before a word that is no pronoun, article or preposition is excess, a complaint
 * ("too thin to keep", "way too ambitious"); "me too", "it was fine too" are "also".
 */
const EXCESS =
  / too (?!(?:i|me|we|us|you|it|he|she|they|them|him|her|the|a|an|and|but|or|so|is|was|are|were|to|for|of|in|on|at|as|if|that|this|then|by|with)\b)([\p{L}][\p{L}-]*) /gu;

/**
 * Praise said sarcastically: "great, another meeting", "love that for me", "sure, totally
 * fine", "what could go wrong", and a closing "Fantastic planning." after what went wrong
 * (said alone, "Great job" is praise). Replaced by a complaint word before the clauses are read.
 */
const IRONIC_PRAISE =
  /\b(?:(?:great|wonderful|fantastic|perfect|awesome|brilliant|lovely|super|cool|nice|oh good)\s*[,.!…]+\s*(?:just\s+)?(?:another|more|yet another|one more)\b|love (?:that|this) for (?:me|us|him|her|them)\b|(?:sure|yeah|oh yes)\s*[,.!…]+\s*(?:totally|very|super|completely|perfectly|absolutely)\s+(?:fine|reasonable|realistic|doable|normal|great|sane|sustainable)\b|what could (?:possibly )?go wrong\b|(?<=[.!?…]\s+)(?:great|fantastic|brilliant|excellent|superb|wonderful|lovely|stellar|amazing|marvellous|top-notch|first-class)\s+(?:planning|organi[sz]ation|management|timing|communication|scheduling|thinking|leadership|service|teamwork)(?:\s*,?\s*(?:everyone|guys|all|team|folks|as usual|as always|again))?\s*[.!]*\s*$)/giu;

/**
 * Praise on both ends of a report of what went wrong: "Wonderful, handover took 50 minutes again.
 * Love it." Either end alone may be meant ("Great, the app works again"); both together are not.
 * Each end is read as sarcastic praise.
 */
const PRAISE_OPENER =
  "(?:oh\\s+)?(?:great|wonderful|fantastic|perfect|brilliant|lovely|marvell?ous|super|awesome|excellent|amazing|(?:very\\s+)?(?:nice|good))";
const PRAISE_CLOSER =
  "(?:love it|loving it|love that|love this|just great|just perfect|just lovely|lovely|perfect|brilliant|great|fantastic|marvell?ous|super|awesome|wonderful|amazing|living the dream|money well spent|worth every penny)";
/**
 * Dictation and hurried notes leave the punctuation out ("oh great the grinder jammed again ...,
 * fantastic investment that"): an opener is set off by a comma or "!", or is an interjection
 * straight before the clause it comments on ("great the", "brilliant my"); a closer follows a
 * comma as well as a full stop, and may be praise of a noun with a pointing word ("fantastic
 * investment that", "great planning there").
 */
/** Who gave what the closing praise is of: "very good service they are giving", "great help you were". */
const PROVIDER =
  "(?:they|you|we|he|she)(?:\\s+(?:are|were|is|was))?\\s+(?:giving|providing|offering|getting|gave|give|provide)";
const OPENER_END = "(?:\\s*[,!]+|\\s+(?=(?:the|my|our|his|her|their|this|that|it|we|they|he|she|i|another)\\s))";
const NOUN_CLOSER = `(?:great|fantastic|brilliant|wonderful|lovely|perfect|superb|excellent|amazing|marvell?ous|very (?:good|nice))\\s+[\\p{L}-]+(?:\\s+(?:that|there|then|${PROVIDER}))?`;
const CLOSER = `(?:${PRAISE_CLOSER}|${NOUN_CLOSER})`;
const BOOKENDED = new RegExp(
  `^\\s*${PRAISE_OPENER}(?=${OPENER_END}.+[.!?…,]\\s*${CLOSER}\\s*[.!]*\\s*$)|(?<=^\\s*${PRAISE_OPENER}${OPENER_END}.+[.!?…,]\\s*)${CLOSER}\\s*[.!]*\\s*$`,
  "giu",
);

/**
 * News that something works again ("Great, the lift works again, lovely", "staging has been up all
 * week"): praise at both ends of it is meant. Only a mishap between them makes it sarcasm.
 */
const RECOVERED =
  /\b(?:(?:works?|working|running|back)\s+(?:again|up|on|online|to normal)|up and running|(?:is|are|was|were|got|finally|now)\s+(?:fixed|sorted|mended|repaired)|(?:has|have) been (?:up|stable|fine|solid)|up all (?:day|week|month))\b/iu;

/** Praise at both ends, as sarcasm: not of news that something works again. */
const bookended = (text: string) => !RECOVERED.test(text);

/** Praise that closes a text, after a comma or a full stop, or a spoken one ("... so yeah money well spent"). */
const CLOSING_PRAISE = new RegExp(`(?<=(?:[.!?…,;]|\\b(?:so yeah|yeah))\\s*)${CLOSER}\\s*[.!]*\\s*$`, "iu");
// "didnt turn up": a phone or a thumb drops the apostrophe.
const MISHAP_WORDS = `\\b(?:${MISHAPS.map((m) => m.replace(/'/g, "['’]?")).join("|")})\\b`;
const MISHAP = new RegExp(MISHAP_WORDS, "iu");
const MISHAPS_ALL = new RegExp(MISHAP_WORDS, "giu");

/**
 * Praise closing a report of what went wrong ("drill battery died halfway through a ceiling,
 * brilliant"): sarcasm, though nothing opens it. Closing praise of anything else is meant.
 */
function closesMishap(text: string): boolean {
  const m = CLOSING_PRAISE.exec(text);
  return m !== null && !RECOVERED.test(text) && MISHAP.test(text.slice(0, m.index));
}

/** A praise word opening a statement, set off by a comma or "!" or said straight before its clause: "Great, ...", "oh brilliant the bus ...". */
const OPENING_PRAISE = new RegExp(`^\\s*${PRAISE_OPENER}${OPENER_END}\\s*`, "iu");

/**
 * Praise opening a report of what went wrong ("Wonderful, the power cut out during the match",
 * "Very nice, the inverter is showing a fault again"): sarcasm, as praise closing one is. Opening
 * praise of anything else ("Great, the lift works again", "Nice, the app is back up") is meant.
 */
function opensMishap(text: string): boolean {
  const m = OPENING_PRAISE.exec(text);
  return m !== null && !RECOVERED.test(text) && MISHAP.test(text.slice(m[0].length));
}

/** The text with its sarcastic praise read as the complaint it is. */
const withIrony = (text: string) => {
  const closes = closesMishap(text);
  const opens = opensMishap(text);
  const out = (bookended(text) ? text.replace(BOOKENDED, " ironic-praise ") : text)
    .replace(IRONIC_PRAISE, " ironic-praise ")
    .replace(closes ? CLOSING_PRAISE : /$^/u, " ironic-praise ")
    .replace(opens ? OPENING_PRAISE : /$^/u, " ironic-praise ");
  // The mishap the praise mocks is what went wrong, not a "not": "she still won't put her face
  // in, so yeah money well spent" is one complaint, not a complaint turned round by "won't".
  return closes || opens ? out.replace(MISHAPS_ALL, " mishap ") : out;
};

/** The valence phrases of a normalised text and their signed sum. */
function phrasesOf(normalised: string): { sum: number; words: string[] } {
  let rest = normalised.replace(NOT_EVALUATIVE, " ");
  let sum = 0;
  const words: string[] = [];
  for (const [phrase, sign] of PHRASES) {
    const needle = ` ${phrase} `;
    if (!rest.includes(needle)) continue;
    const parts = rest.split(needle);
    sum += sign * (parts.length - 1);
    words.push(phrase);
    rest = parts.join(" ");
  }
  for (const m of rest.matchAll(EXCESS)) {
    sum -= 1;
    words.push(`too ${m[1]}`);
  }
  return { sum, words };
}

/** A negation cue that is itself a complaint ("a mistake", "too slow") is counted once, as valence. */
const grammatical = (cues: readonly CueHit[]) =>
  cues.filter((c) => !CONCESSIONS.has(c.cue) && !(c.kind === "negation" && phrasesOf(` ${c.cue} `).sum !== 0));

/** The polarity of cues leaving out complaint words and concessions: whether a "not" turns the statement round. */
export function grammaticalPolarity(cues: readonly CueHit[]): 1 | -1 {
  return polarity(grammatical(cues));
}

export interface Evaluation {
  /** +1 praise, -1 complaint, 0 no evaluative word (or as much of each). */
  sign: -1 | 0 | 1;
  /** The evaluative words read, for the reason a judgement gives. */
  words: string[];
}

/**
 * Which way a text judges what it is about: per clause, its evaluative words' sign, turned
 * round by a negation in that clause ("not fair", "no longer smooth"); summed over clauses.
 * Idioms that carry their own stance ("not bad at all", "no longer blocked") are read by
 * cues.ts and left out here.
 */
export function evaluation(text: string): Evaluation {
  let read = EVALUATED.get(text);
  if (read === undefined) {
    // Reflect judges the same facts against many opinions, and the same opinions every day.
    if (EVALUATED.size >= EVALUATED_KEPT) EVALUATED.clear();
    read = evaluationOf(text);
    EVALUATED.set(text, read);
  }
  return read;
}

const EVALUATED = new Map<string, Evaluation>();
const EVALUATED_KEPT = 20_000;

function evaluationOf(text: string): Evaluation {
  let sum = 0;
  const words: string[] = [];
  for (const c of evaluatedClauses(text)) {
    sum += c.sign;
    words.push(...c.words);
  }
  return { sign: sum > 0 ? 1 : sum < 0 ? -1 : 0, words };
}

/** The text praises sarcastically ("great, another meeting", "sure, totally fine"): a stance, the complaint it means. */
export function praisesIronically(text: string): boolean {
  IRONIC_PRAISE.lastIndex = 0;
  BOOKENDED.lastIndex = 0;
  const found =
    IRONIC_PRAISE.test(text) || (bookended(text) && BOOKENDED.test(text)) || closesMishap(text) || opensMishap(text);
  IRONIC_PRAISE.lastIndex = 0;
  BOOKENDED.lastIndex = 0;
  return found;
}

/** Each clause of a text that judges something, with its sign and words (see evaluation). */
export function evaluatedClauses(text: string): { text: string; sign: -1 | 1; words: string[] }[] {
  const out: { text: string; sign: -1 | 1; words: string[] }[] = [];
  for (const clause of withIrony(text).split(CLAUSE)) {
    if (clause.trim() === "") continue;
    const read = phrasesOf(cueResidue(clause));
    if (read.sum === 0) continue;
    const sign = Math.sign(read.sum) * polarity(grammatical(findCues(clause)));
    out.push({ text: clause, sign: sign > 0 ? 1 : -1, words: read.words });
  }
  return out;
}

/**
 * A text that ranks one thing against another ("clunky compared to Svelte", "better than
 * React"): its praise is relative. "smoother than expected" ranks against a forecast, not a rival.
 */
export function ranks(text: string): boolean {
  return /\b(?:than(?!\s+(?:\S+\s+)?(?:expected|feared|thought|hoped|planned|predicted|imagined|anticipated|ever|before|usual|last))|compared (?:to|with)|vs\.?|versus|instead of|rather than)\s/iu.test(
    text,
  );
}

/**
 * The verb that joins a judged subject to its judgement: "the rota IS fine", "it FEELS clunky",
 * terse "standups = theater"; or a verb that is itself the judgement, kept in the predicate:
 * "melatonin | does nothing", "handovers | take far too long", "the dishwasher | saves us time".
 */
const COPULA =
  /\s(?:(?:=|is|are|was|were|feels|felt|seems|seemed|looks|looked|sounds|sounded|has been|have been|had been|would be|will be|remains|remained|stays|stayed|became|becomes|got|gets|went|goes)\s|(?=(?:does|do|did) nothing\b|(?:makes|made|make) no difference\b|(?:saves|saved) (?:us|me|time|money|them|him|her)\b|(?:takes|take|took|runs|run|ran|lasts|last|lasted|drags|dragged) (?:(?:far|way|much|a bit|so|a lot) )?(?:too long|forever|ages)\b))/iu;
/** "the rota's fine": only when no other copula follows ("Linear's pricing is annoying" judges the pricing). */
const SHORT_COPULA = /['’]s\s/u;

/** A subject that only points back ("..., it is unfair"): what it judges is named elsewhere. */
const PRONOUN = /^(?:it|this|that|they|these|those|he|she|we|i|you|everything|all)$/iu;

/** A statement that opens with one person's name ("Menon got ...", "Dr. Shetty explained ..."), and the pronouns a later clause names them by. */
const LEADING_PERSON = /^\s*((?:(?:Dr|Mr|Mrs|Ms|Miss)\.?\s+)?\p{Lu}[\p{Ll}\p{M}'’-]+)\s+\p{Ll}/u;
const PERSON_PRONOUN = /\b(?:him|her|them|he|she|they)\b/iu;

/** Longest subject read as one thing judged ("the new on-call rota for Berlin"). */
const SUBJECT_WORDS = 6;

/**
 * What a statement of the form "<subject> <copula> <judgement>" judges: the subject as
 * written ("the on-call rota", "design system v2"), when the words after the copula are
 * evaluative ("is unfair", "feels pretty smooth now"). Undefined for any other statement.
 */
export function evaluatedSubject(text: string): string | undefined {
  const split = subjectSplit(text, true);
  const predicate = split === undefined ? "" : text.slice(split.at).split(CLAUSE)[0]!;
  if (split !== undefined && evaluation(predicate).sign !== 0) return split.subject;
  // "starting to like the new van, ...", "really hate the standup bot": the verb is the judgement.
  const liked = LIKING.exec(text)?.[1]?.trim();
  if (liked !== undefined && liked.split(/\s+/u).length <= SUBJECT_WORDS) return liked;
  // "Menon got the tanker sorted in two days, hats off to him": a person, judged by a pronoun in a later clause.
  const person = LEADING_PERSON.exec(text)?.[1];
  if (person !== undefined && !STOP_WORDS.has(person.toLowerCase())) {
    const later = text.split(CLAUSE).slice(1);
    if (later.some((c) => PERSON_PRONOUN.test(c) && evaluation(c).sign !== 0)) return person;
  }
  // "Great, staging has been up all week, lovely": the praise is of what works again.
  const news = text.replace(OPENING_PRAISE, "");
  if (news === text || !RECOVERED.test(news) || evaluation(text).sign <= 0) return undefined;
  return subjectSplit(news, true)?.subject ?? subjectSplit(news)?.subject;
}

/** A verb of liking or loathing opening a statement, and what it is said of ("the new van"). */
const LIKING =
  /^\s*(?:(?:i|we)\s+)?(?:(?:really|actually|kinda|still|starting to|beginning to|growing to|coming to)\s+)*(?:like|love|hate|loathe|can't stand|cannot stand)\s+((?:the|my|our|this|that|his|her|their)\s+[^,.;:!?]+?)(?=\s*[,.;:!?]|\s+(?:but|though|and|on|for|in|at)\s|\s*$)/iu;

/**
 * What a "<subject> <copula> <judgement>" statement judges and on which scale: "the gym
 * membership is not cheap" -> subject "the gym membership", scale "price". Undefined when
 * the judgement's words are on no one scale.
 */
export function judgedOnScale(text: string): { subject: string; scale: string } | undefined {
  const split = subjectSplit(text, true);
  if (split === undefined) return undefined;
  const words = phrasesOf(cueResidue(text.slice(split.at).split(CLAUSE)[0]!)).words;
  // Words on no scale ("good" in "cheap and good value") leave the scale to the others.
  const scales = new Set(words.map((w) => SCALES.get(w)).filter((s) => s !== undefined));
  // "CEF's prices are a joke": judged on no scale, of a subject that names one (its price).
  const named = / (\p{L}+)\s*$/u.exec(` ${split.subject}`)?.[1]?.toLowerCase();
  const ofScale = named === undefined ? undefined : SCALE_NOUNS.get(named);
  if (scales.size === 0 && words.length > 0 && ofScale !== undefined) {
    return { subject: split.subject.slice(0, split.subject.length - named!.length).trim(), scale: ofScale };
  }
  if (scales.size !== 1) return undefined;
  const [scale] = scales;
  return scale === undefined ? undefined : { subject: split.subject, scale };
}

/** The subject of a "<subject> <copula> ..." statement ("standups" in "standups are theater"), whatever follows. */
export function statedSubject(text: string): string | undefined {
  return subjectSplit(text)?.subject;
}

/** A negation or an auxiliary after a statement's subject: "growing veg | doesn't save money", "the grant | will come through". */
const AUXILIARY =
  /\s(?:doesn't|does not|don't|do not|didn't|did not|won't|will not|can't|cannot|can not|isn't|aren't|wasn't|weren't|will|would|should|shall|can|could|might|may|must|never|always)\s/iu;

/**
 * What a statement says something about: its "<subject> <copula>" subject, else the words
 * before its first negation or auxiliary ("growing your own veg" in "growing your own veg
 * doesn't save money"), when those are a few words. Undefined when neither is found.
 */
export function claimSubject(text: string): string | undefined {
  const stated = statedSubject(text);
  if (stated !== undefined) return stated;
  const m = AUXILIARY.exec(text);
  if (!m) return undefined;
  const subject = text.slice(0, m.index).split(CLAUSE).at(-1)!.trim();
  if (subject === "" || subject.split(/\s+/).length > SUBJECT_WORDS || PRONOUN.test(subject)) return undefined;
  return subject;
}

/** A phrase of time or cause before a subject that starts with its own determiner: "since the update | the app". */
const LEAD_IN =
  /^(?:after|since|before|during|following|with|without|now that|thanks to|because of)\s+(?:\S+\s+){1,3}?(?=(?:the|a|an|my|our|this|that|these|those|his|her|their|its)\s)/iu;

/**
 * Terse notes leave the copula out ("laundrette not exactly cheap either", "stats lecs still a
 * waste of a morning"): a word that only a predicate starts with marks where it would be. Read
 * only when no copula is written, so "I still think the rota is unfair" judges the rota, and only
 * for a judgement (evaluatedSubject, judgedOnScale), so a plain note gets no subject from it.
 */
const UNWRITTEN_COPULA =
  /\s(?=(?:still|not|never|way|so|kinda|pretty|totally|def|defo|definitely|a total|a complete|a real|a bit|an absolute)\s)/iu;

function subjectSplit(raw: string, terse = false): { subject: string; at: number } | undefined {
  // Texting's "r" for "are" ("the lectures r pointless"), lower-case only: "R" is a language. Same length, same indices.
  const text = raw.replace(/(?<=\s)r(?=\s)/gu, "=");
  const m = COPULA.exec(text) ?? SHORT_COPULA.exec(text) ?? (terse ? UNWRITTEN_COPULA.exec(text) : null);
  if (!m) return undefined;
  // "not gonna lie, the landlord is hopeless": a lead-in before a comma is not the subject,
  // nor one of time or cause without a comma ("after the refurb the canteen is ...").
  const subject = text.slice(0, m.index).split(CLAUSE).at(-1)!.trim().replace(LEAD_IN, "");
  if (subject === "" || subject.split(/\s+/).length > SUBJECT_WORDS || PRONOUN.test(subject)) return undefined;
  return { subject, at: m.index };
}
