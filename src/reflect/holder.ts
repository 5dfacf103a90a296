/**
 * Whose belief a statement is (pure): the person it reports the belief of ("Priya thinks ...",
 * "my manager Rosa thinks ...", "..., says Rosa"), else a person-like head entity, else the
 * first head entity. topic.ts builds an opinion's identity on it.
 */
import { STOP_WORDS } from "../analysis/stopwords.js";
import { fold } from "../analysis/tokens.js";
import { entityKey, findMentions } from "../retain/entities.js";
import { KIN_NAMES, PERSON_ROLES } from "./person-words.js";

/** A name is a person's when written like one: one capitalised word of letters ("Mara", "Zoë", "O'Neil"). */
export const PERSON_LIKE = /^\p{Lu}[\p{Ll}\p{M}'’]+$/u;

/** Entities before the colon: those the text does not @-mention itself. */
export function headEntities(entities: readonly string[], content: string): string[] {
  const inline = new Set(findMentions(content).map(entityKey));
  return entities.filter((e) => !inline.has(entityKey(e)));
}

/**
 * A belief the text reports for someone else: "Priya thinks ...", "@Li is convinced ...",
 * "according to @Jonas, ...", "per @Tomasz, ...", "as @Mara put it, ...", "@Dana's view: ...",
 * "my manager Rosa thinks ...". The name may follow a description of the person ("my
 * manager", "our new CTO").
 */
const NAME = "@?([\\p{L}][\\p{L}\\p{N}_-]*)";
/**
 * A title of respect written after the name, as Indian English writes one ("Rao uncle", "Meena
 * aunty", "Sharma ji", "Iyer sir"): part of how the person is named, not the view.
 */
const HONORIFIC = "(?:\\s+(?:uncle|aunty|auntie|ji|sir|madam|garu|sahib|saab|bhai|bhaiya|didi|anna|akka))?";
/** "my manager Rosa", "our new CTO Rosa": who the name is, in lower-case words before it. */
const DESCRIBED = "(?:(?:my|our|the|his|her|their)\\s+(?:[\\p{Ll}-]+,?\\s+){1,3})?";
const ADVERB =
  "(?:\\s+(?:still|now|also|really|honestly|firmly|strongly|actually|apparently|clearly|both|always|has always|had always))?";
/** "Rosa and Dev both think": the first name holds it (one holder per opinion). */
const AND_OTHER = "\\s+(?:and|&)\\s+@?[\\p{L}][\\p{L}\\p{N}_-]*(?:\\s+both)?\\s+(?:think|believe|reckon|agree)";
/** Being sure, in the ways people write it: "is convinced", "was adamant that", "'s pretty sure". */
const SURE =
  "(?:\\s+(?:is|was)|['’]s)(?:\\s+(?:pretty|quite|very|totally|fully|dead|absolutely|100%))?\\s+(?:convinced|adamant|sure|certain|positive|confident)";
/**
 * Holding to a belief or letting it go, as people say a person did: "Omar doubled down",
 * "Hal changed his mind", "Rosa came around", "Jon is actually coming round to it", "Li stands by it". Only a person does these.
 */
const STANDS =
  "(?:doubled|doubles|doubling) down|(?:came|comes|has come|finally came) (?:a)?round|(?:is|was|are|were) (?:actually |finally |slowly |even )?coming (?:a)?round|changed (?:his|her|their) mind|(?:backtracked|backpedalled|backpedaled|u-turned)|(?:still )?stands by|(?:has |have |had )?(?:gone|went|going|turned) (?:a bit |a little |right )?(?:cold|sour) on|(?:has |had )?(?:soured|cooled) on";
/** An aside between the name and the verb: "Bernadette, bless her, still insists", "Dev, to be fair, thinks". */
const ASIDE = ",\\s*[\\p{L}'’ ]{2,24},";
/** Verbs only a person does with a belief: these report one for any name, tagged or not. */
/**
 * "Ash figures the grant will come through": a guess, as a person makes one; not "sales figures
 * are up" or "figured out the pump" (a noun, or working something out).
 */
const FIGURES =
  "(?:figures|figured)(?!\\s+(?:are|were|is|was|show|shows|showed|look|looks|looked|for|from|in|on|of|and|to|out)\\b)";
const PERSON_VERBS = `(?:\\s+(?:thinks|believes|reckons|reckoned|${FIGURES}|insists|argues|suspects|maintains|swears|(?:keeps|kept|was|is) (?:saying|arguing|insisting)|(?:keeps|kept|was|is) telling (?:(?:me|us|everyone|everybody) )?that|(?:is|was|are|were) (?:now |also )?agreeing (?:now )?(?:that|with)|admits|admitted|concedes|conceded|${STANDS}|(?:doesn't|does not|didn't|did not|no longer) (?:think|believe))|['’]s (?:come (?:a)?round|changed (?:his|her|their) mind|doubled down)|${SURE})`;
/** Verbs that report a belief of a tagged name (things "say" and "feel" too, so only when tagged). */
const BELIEF_VERBS = `(?:${PERSON_VERBS}|\\s+(?:feels|says|said|claims|expects|predicts|figures))`;
/** A report written after the belief: "..., says Rosa", "— Rosa thinks", "(per Rosa)". */
const AFTER = `[,;(—–-]\\s*(?:(?:says|said|per|according to)\\s+${NAME}|${NAME}\\s+(?:says|said|thinks|reckons|reckoned|thought))\\s*[.!)]*\\s*$`;
/** A lead-in word before the report: "apparently Ash thinks ...", "btw, Rosa says ...". */
const LEAD = "(?:(?:apparently|honestly|also|btw|fwiw|anyway|and|but|so|oh|well|plus|even)\\s*,?\\s+)?";
const ATTRIBUTIONS = [
  ...[
    `(?:according to|per|in the words of)\\s+${NAME}`,
    `as\\s+${NAME}\\s+(?:puts it|put it|says|said|sees it|would say)`,
    `(?:in\\s+)?${NAME}['’]s\\s+(?:view|take|opinion|position|feeling|belief|words|read)`,
    `${DESCRIBED}${NAME}${HONORIFIC}(?:${ASIDE})?,?(?:${AND_OTHER}|${ADVERB}${BELIEF_VERBS})`,
  ].map((p) => new RegExp(`^[\\s"“]*${LEAD}${p}\\b`, "iu")),
  new RegExp(AFTER, "iu"),
];

/**
 * The same reports for a name nobody tagged ("Dev said on the call that ...", "my manager Rosa
 * thinks ..."): only verbs a person does, and "says" only when what follows is what was said
 * ("said on the call that", "says he was wrong"), so "Grafana says p99 is 300ms" or "Postgres
 * feels slow" report nobody.
 */
const UNTAGGED_ATTRIBUTIONS = [
  ...[
    `(?:according to|in the words of)\\s+${NAME}`,
    `per\\s+${NAME}\\s*,`,
    `(?:heard|hear|learned)\\s+(?:from|via)\\s+${NAME}(?:\\s+that\\b|\\s*,)`,
    `as\\s+${NAME}\\s+(?:puts it|put it|sees it|would say)`,
    `${NAME}['’]s\\s+(?:view|take|opinion|position|belief)`,
    `${DESCRIBED}${NAME}${HONORIFIC}(?:${ASIDE})?,?(?:${AND_OTHER}|${ADVERB}${PERSON_VERBS})\\b`,
    // "Ash has gone quiet about the grant, says it's probably dead": what the person did, then what they said.
    `${NAME}\\s+(?:has|had|is|was|went|got|seemed|sounded)\\s[^,;:]{1,60},\\s*(?:and\\s+)?(?:says|said|reckons|thinks)\\s+(?:that\\b|it\\b|it['’]s|he\\b|she\\b|they\\b|the\\b)`,
    `${DESCRIBED}${NAME}${HONORIFIC},?${ADVERB}\\s+(?:says|said|claims|claimed|mentioned|told (?:me|us|the team)|pointed out|feels|felt)(?:(?:\\s+\\S+){0,5}?\\s+that\\b|\\s+(?:he|she|they|he's|she's|they're|it's|it|the)\\b|\\s*[:,])`,
  ].map((p) => new RegExp(`^[\\s"“]*${LEAD}${p}`, "iu")),
  new RegExp(AFTER, "iu"),
];

/**
 * For each pattern above, in order, words one of which is in every text it matches. V8
 * compiles a pattern on its first match attempt (Unicode letter classes, case-insensitive:
 * ~2-4 ms each, ~40 ms for all of them on a night's first report word), so a pattern whose
 * words the text lacks is not tried: it could not match (same results, test/holder-gates.test.ts).
 * Case-insensitive with `u` as the patterns are ("ſ" and "K" fold to "s" and "k" there too).
 */
const BELIEF_WORDS =
  "think|believ|reckon|agree|figure|insist|argu|suspect|maintain|swear|saying|telling|admit|conced|down|round|mind|backtrack|backpedal|u-turn|stands|convinced|adamant|sure|certain|positive|confident|cold|sour|cooled";
const AFTER_WORDS = "says|said|per|according|thinks|reckon|thought";
/** Per pattern: its words, and whether they come after a name (so never in a statement's first letter). */
type Gate = readonly [RegExp, boolean];
const gate = (words: string, late: boolean): Gate => [new RegExp(words, "iu"), late];
/** The belief verbs' gates, also asked by the role and lower-case-name patterns below. */
const TAGGED_BELIEF_GATE = gate(`${BELIEF_WORDS}|feels|says|said|claims|expects|predicts`, true);
const UNTAGGED_BELIEF_GATE = gate(BELIEF_WORDS, true);
const NEEDED_TAGGED: readonly Gate[] = [
  gate("according|per|words", false),
  gate("put|says|said|sees|would", true),
  gate("view|take|opinion|position|feeling|belief|words|read", true),
  TAGGED_BELIEF_GATE,
  gate(AFTER_WORDS, false),
];
const NEEDED_UNTAGGED: readonly Gate[] = [
  gate("according|words", false),
  gate("per", false),
  gate("hear|learned", false),
  gate("put|sees|would", true),
  gate("view|take|opinion|position|belief", true),
  UNTAGGED_BELIEF_GATE,
  gate("says|said|reckons|thinks", true),
  gate("says|said|claim|mentioned|told|pointed|feels|felt", true),
  gate(AFTER_WORDS, false),
];

/**
 * Where a statement's first word starts, as the patterns' `^[\s"“]*` reads it. A pattern whose
 * report word follows a name ("Rosa thinks", not "according to") cannot match a text whose
 * only report word is its first ("Thinks the rollout is late", as O facts are written).
 */
const OPENING = /[^\s"“]/u;

/**
 * A person named by kinship or role, however cased: "mum reckons ...", "my sister thinks ...",
 * "the head chef says ...". Certainly a person, so "says" and "feels" report a belief as they
 * do for a tagged name. The holder is the kinship or role word ("mum", "sister", "chef").
 */
const ROLE_WORDS = `(?:${[...PERSON_ROLES].sort((a, b) => b.length - a.length).join("|")})`;
const KIN_WORDS = `(?:${[...KIN_NAMES].sort((a, b) => b.length - a.length).join("|")})`;
const PERSON_BY_ROLE = new RegExp(
  `^[\\s"“]*${LEAD}(?:(?:my|our|the)\\s+(?:[\\p{Ll}-]+\\s+)?(${ROLE_WORDS})|(${KIN_WORDS}))(?:${ASIDE})?,?${ADVERB}${BELIEF_VERBS}\\b`,
  "iu",
);
/**
 * A name written lower case, as quick notes and dictation write them ("priya reckons ...",
 * "tasha admits ..."): a word no dictionary of function words holds, before a verb only a person
 * does with a belief. A bare noun before "thinks" or "admits" is a name in English ("everyone
 * thinks" and "management reckons" name no one in particular).
 */
const LOWER_CASE_NAME = new RegExp(
  `^[\\s"“]*${LEAD}([\\p{Ll}][\\p{Ll}\\p{M}'’-]+)(?:${ASIDE})?,?${ADVERB}${PERSON_VERBS}\\b`,
  "u",
);

/**
 * What PERSON_BY_ROLE and LOWER_CASE_NAME open with, without their costly letter classes: a
 * role needs "my", "our" or "the" first, or a kin word; a lower-case name a lower-case letter
 * (LOWER_CASE_NAME is case-sensitive, and its lead-in words are lower case too).
 */
const ROLE_OPENER = new RegExp(`^[\\s"“]*${LEAD}(?:my|our|the|${KIN_WORDS})`, "iu");
const LOWER_OPENER = /^[\s"“]*\p{Ll}/u;

/** A word without which no pattern above reports a belief. */
const REPORT_WORD =
  /\b(?:thinks?|thought|believes?|reckon(?:s|ed)?|insist(?:s|ing)?|argu(?:es|ing)|suspects|maintains|swears|admit(?:s|ted)?|conceded?|concedes|says|said|saying|mentioned|told|pointed|feels|felt|claims|claimed|expects|predicts|figures|figured|according|per|words|view|take|opinion|position|belief|feeling|read|convinced|adamant|sure|certain|positive|confident|heard|hear|learned|agree|agreeing|telling|puts?|sees|down|around|round|mind|backtracked|backpedall?ed|u-turned|stands|cold|sour|soured|cooled)\b/iu;

/** Capitalised words that start a report but name no one person ("Everyone thinks", "Finance says"). */
const NOBODY_IN_PARTICULAR = new Set(
  (
    "everyone everybody nobody noone someone somebody anyone anybody people folks management leadership finance legal sales " +
    "marketing support team staff customers users he she they we i it this that there who one most many some all both " +
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august " +
    "september october november december today yesterday"
  ).split(" "),
);

/**
 * entityKey of the person a statement reports the belief of, when it says so at its start:
 * one of the statement's entities, or a name written like a person's that nobody tagged.
 */
export function attributedTo(
  entities: readonly string[],
  content: string,
  roles?: ReadonlyMap<string, string>,
): string | undefined {
  const name = reportedName(entities, content, roles);
  return name === undefined ? undefined : entityKey(name);
}

/**
 * The name, as written, of the person a statement reports the belief of (see attributedTo). One
 * named by kin or role ("mum reckons ...", "the chef says ...") is the person `roles` ties that
 * word to (MEMORY.md's "Mum (Rita)", "Kemal is the chef": role-ties.ts), else the word itself.
 */
export function reportedName(
  entities: readonly string[],
  content: string,
  roles?: ReadonlyMap<string, string>,
): string | undefined {
  const report = reportOf(entities, content) ?? (roles === undefined ? undefined : saidByTied(content, roles));
  if (report === undefined || roles === undefined) return report?.name;
  if (report.byRole) return roles.get(report.name.toLowerCase()) ?? report.name;
  // "marta changed her mind": the person MEMORY.md names ("Marta is our PM"), as MEMORY.md spells them.
  return /^\p{Ll}/u.test(report.name) ? (tiedSpelling(report.name, roles) ?? report.name) : report.name;
}

/** The spelling of a person `roles` ties a role to, when `word` is that person's name in any case. */
function tiedSpelling(word: string, roles: ReadonlyMap<string, string>): string | undefined {
  const low = word.toLowerCase();
  for (const name of roles.values()) if (name.toLowerCase() === low) return name;
  return undefined;
}

/**
 * "marta says nobody asked for dark mode": a name written lower case before "says" is a person
 * only when MEMORY.md names them (role-ties.ts), as "recipe says" or "sat nav says" never are.
 */
const LOWER_CASE_SAYS = new RegExp(
  `^[\\s"“]*${LEAD}([\\p{Ll}][\\p{Ll}\\p{M}'’-]+)(?:${ASIDE})?,?${ADVERB}\\s+(?:says|said|feels|felt|claims|expects|predicts)\\b`,
  "u",
);

function saidByTied(content: string, roles: ReadonlyMap<string, string>): Report | undefined {
  const m = LOWER_CASE_SAYS.exec(content);
  if (m === null || tiedSpelling(m[1]!, roles) === undefined) return undefined;
  return { name: m[1]!, claim: claimOutside(content, m) };
}

/**
 * What a statement reports someone as believing, without the report: "the village fête will be
 * rained off" in "Bernadette is convinced the village fête will be rained off", "the reorg was
 * rushed" in "the reorg was rushed, says Rosa". Undefined when it reports no one.
 */
export function reportedClaim(entities: readonly string[], content: string): string | undefined {
  return reportOf(entities, content)?.claim;
}

interface Report {
  name: string;
  claim?: string;
  /** The name is a kin or role word ("mum", "chef"). */
  byRole?: true;
}

function reportOf(entities: readonly string[], content: string): Report | undefined {
  // Most statements report nobody: one pass over the words every pattern needs, before the
  // patterns. A report opens or closes the statement, so a long one is read at its ends only.
  const long = content.length > 400;
  const ends = long ? `${content.slice(0, 240)} … ${content.slice(-120)}` : content;
  if (!REPORT_WORD.test(ends)) return undefined;
  // Reflect asks for a statement's holder several times (its topic, its reporters, a new opinion's entities).
  const key = `${entities.join("\u0000")}\u0001${content}`;
  if (REPORTED.has(key)) return REPORTED.get(key);
  if (REPORTED.size >= REPORTED_KEPT) REPORTED.clear();
  const found = reportedNameOf(entities, ends);
  const report: Report | undefined =
    found === undefined
      ? undefined
      : long
        ? { name: found.name }
        : { name: found.name, claim: claimOutside(content, found.frame) };
  if (report !== undefined && found?.byRole) report.byRole = true;
  REPORTED.set(key, report);
  return report;
}

/** The statement without the words that report it: after a report that opens it, before one that closes it. */
function claimOutside(content: string, frame: RegExpExecArray): string {
  const claim = frame.index === 0 ? content.slice(frame[0].length) : content.slice(0, frame.index);
  return claim.replace(/^[\s,:;—–-]*(?:that\s+)?/iu, "").replace(/[\s,;—–-]+$/u, "");
}

const REPORTED = new Map<string, Report | undefined>();
const REPORTED_KEPT = 20_000;

/** `gated`: a pattern runs only on a text holding one of its words (NEEDED); false in tests only. */
export function reportedNameOf(
  entities: readonly string[],
  content: string,
  gated = true,
): { name: string; frame: RegExpExecArray; byRole?: true } | undefined {
  const start = content.search(OPENING);
  if (start < 0) return undefined;
  const late = content.slice(start + 1);
  const holds = ([words, isLate]: readonly [RegExp, boolean]) => words.test(isLate ? late : content);
  for (const [i, re] of ATTRIBUTIONS.entries()) {
    if (gated && !holds(NEEDED_TAGGED[i]!)) continue;
    const m = re.exec(content);
    const name = m?.[1] ?? m?.[2];
    if (name === undefined) continue;
    const key = entityKey(name);
    const tagged = entities.find((e) => entityKey(e) === key);
    if (tagged !== undefined) return { name: tagged, frame: m! };
    break;
  }
  const role = gated && !(ROLE_OPENER.test(content) && holds(TAGGED_BELIEF_GATE)) ? null : PERSON_BY_ROLE.exec(content);
  // "our new CTO, Ilse, is convinced": the name set off after the role is the holder (read below).
  if (role !== null && !/,\s*\p{Lu}[\p{Ll}\p{M}'’]+\s*,/u.test(role[0])) {
    return { name: (role[1] ?? role[2])!, frame: role, byRole: true };
  }
  for (const [i, re] of UNTAGGED_ATTRIBUTIONS.entries()) {
    if (gated && !holds(NEEDED_UNTAGGED[i]!)) continue;
    const m = re.exec(content);
    const name = m?.[1] ?? m?.[2];
    if (name !== undefined && PERSON_LIKE.test(name) && !NOBODY_IN_PARTICULAR.has(fold(name))) {
      return { name, frame: m! };
    }
  }
  if (gated && !(LOWER_OPENER.test(content) && holds(UNTAGGED_BELIEF_GATE))) return undefined;
  const low = LOWER_CASE_NAME.exec(content);
  const lower = low?.[1];
  if (lower !== undefined && !STOP_WORDS.has(lower) && !NOBODY_IN_PARTICULAR.has(lower)) {
    // A name tagged on the statement keeps its tagged spelling ("tasha admits" on @Tasha's statement).
    const tagged = entities.find((e) => entityKey(e) === entityKey(lower));
    if (tagged !== undefined) return { name: tagged, frame: low! };
    // "@Mara: still thinks ...", "really reckons": the subject left out, an adverb before the verb.
    if (!NOT_A_SUBJECT.has(lower) && !lower.endsWith("ly")) return { name: lower, frame: low! };
  }
  return undefined;
}

/** Adverbs notes put where the subject was left out ("still thinks", "now admits", "kinda reckons"). */
const NOT_A_SUBJECT = new Set(
  "still now also always never ever even just sort kind kinda sorta somehow maybe perhaps probably definitely totally quite rather pretty very much often sometimes finally already again".split(
    " ",
  ),
);

/**
 * Words that name a group of people who can hold a view together ("the plot group", "the team
 * chat"), and people named in the plural ("the other parents", "the lads on site").
 */
const GROUP_NOUNS =
  "group|chat|channel|thread|forum|committee|team|slack|whatsapp|discord|board|panel|crowd|lads|guys|girls|parents|neighbours|neighbors|regulars|volunteers|residents|players|members|staff|crew";
const GROUP_NOUN = `(?:${GROUP_NOUNS})`;
/** Where a group is ("the lads on site", "the parents at school"): part of its name, not the view. */
const GROUP_PLACE = "(?:\\s+(?:on|at|in|from)\\s+(?:the\\s+)?[\\p{L}-]+)?";
const GROUP_WORDS = "[\\p{L}][\\p{L}\\p{N}'’-]*(?:\\s+[\\p{L}][\\p{L}\\p{N}'’-]*){0,2}?";
/**
 * A view reported for a group, as a whole: "the plot group consensus is that ...", "Slack
 * consensus: ...", "consensus on the team chat is ...", "the committee reckons ...". Only with
 * a word of agreement or a named group: "Everyone thinks ..." or "Finance says ..." stay the
 * writer's (they may share the view).
 */
const GROUP_VIEWS = [
  new RegExp(`^[\\s"“]*${LEAD}(?:the\\s+)?(${GROUP_WORDS})(?:['’]s)?\\s+consensus\\b`, "iu"),
  new RegExp(
    `^[\\s"“]*${LEAD}(?:the\\s+)?(?:consensus|verdict|general feeling)\\s+(?:in|on|from|among|across|of)\\s+(?:the\\s+)?(${GROUP_WORDS})\\s*(?:is|was|seems|:|,)`,
    "iu",
  ),
  new RegExp(
    `^[\\s"“]*${LEAD}(?:even\\s+)?(?:all\\s+(?:of\\s+)?)?(?:the|our|my)\\s+((?:[\\p{L}-]+\\s+){0,2}${GROUP_NOUN})${GROUP_PLACE}\\s+(?:(?:all|mostly|still|now)\\s+)?(?:thinks|think|reckons|reckon|agrees|agree|agreed|feels|feel|felt|says|said|is convinced|are convinced|admits|admit|admitted|concedes|concede|conceded)\\b`,
    "iu",
  ),
];

/** A cheap first check: the text has a word of agreement or a group's. */
const GROUPISH = new RegExp(`\\b(?:consensus|verdict|general feeling|${GROUP_NOUNS})\\b`, "iu");

/** Holder keys of groups start with this: no entity's key does (entityKey keeps no ":"). */
export const GROUP_HOLDER = "group:";

/** The holder key of a group a statement reports the view of ("group:plot-group"), else undefined. */
export function groupHolder(content: string): string | undefined {
  if (!GROUPISH.test(content)) {
    return undefined;
  }
  for (const re of GROUP_VIEWS) {
    const m = re.exec(content);
    if (m?.[1] === undefined) continue;
    const words = fold(m[1])
      .split(/[^\p{L}\p{N}]+/u)
      // "the other lads" and "the lads" are one group.
      .filter((w) => w !== "" && !/^(?:the|our|my|their|a|an|other)$/.test(w));
    // "Our consensus", "my verdict": the writer's own.
    if (words.length > 0) return GROUP_HOLDER + words.join("-");
  }
  return undefined;
}

/**
 * The holder of a statement: the person it reports the belief of ("Priya thinks ..."),
 * else the group it reports the view of ("the plot group consensus is ..."), else a
 * person-like head entity, else the first head entity, else the first entity.
 */
export function holderOf(
  entities: readonly string[],
  content: string,
  roles?: ReadonlyMap<string, string>,
): string | undefined {
  const reported = attributedTo(entities, content, roles) ?? groupHolder(content);
  if (reported !== undefined) return reported;
  const heads = headEntities(entities, content);
  const pick = heads.find((e) => PERSON_LIKE.test(e)) ?? heads[0] ?? entities[0];
  return pick === undefined ? undefined : entityKey(pick);
}
