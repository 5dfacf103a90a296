// The word lists of prose.ts (data): words that look like names in a log and are none.
import { STOP_WORDS } from "../analysis/stopwords.js";

/** Words that open a chat-like `Word:` line without being anyone ("Note: ...", "User: ..."). */
export const NOT_SPEAKERS = new Set(
  (
    "note notes todo update done next later idea ideas question answer summary decision decisions action actions " +
    "reminder status re fwd fyi ps nb tl tldr edit result results goal goals plan plans problem issue fix context " +
    "user assistant agent bot system me you we morning afternoon evening night today yesterday tomorrow time date " +
    "log logs retain link links see source sources warning error info debug " +
    // Labels people put before a colon in MEMORY.md and in logs ("Team: Priya, Jonas",
    // "Family: Ana and the kids", "Health: knee better"): topics, not anyone speaking.
    "team teams family work home health kids children pets travel money budget finances food diet sleep " +
    "exercise fitness mood weather meeting meetings standup project projects task tasks priorities priority focus " +
    "wins blockers blocked learned learnings reading books misc other tip tips important background contacts " +
    "people friends preferences schedule routine address phone birthday role job company location timezone " +
    "tools setup lunch dinner breakfast shopping groceries errands chores admin personal private"
  ).split(" "),
);

/** Capitalised words that are no name anywhere in a sentence. */
export const COMMON = new Set(
  (
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august " +
    "september october november december " +
    // Short forms of months and days ("till Feb", "Thurs"), and holidays: dates, not whom a log is about.
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun " +
    "easter christmas xmas thanksgiving halloween hanukkah diwali ramadan passover eid nye " +
    "today yesterday tomorrow tonight weekend ok okay yes no hi hello hey thanks thank please " +
    // Words whose `'s` is "is" or "us", or whose owner is no one ("Let's", "Everyone's here").
    "let everyone everybody someone somebody nobody anyone anybody " +
    "mr mrs ms dr i i'm i've i'll i'd " +
    // Titles and kin before a name ("Uncle Tunde", "Prof Adeyemi"): the name is the word
    // after, and the title alone is no one. Job titles ("Senior Analyst") are roles, not people.
    "uncle aunt auntie aunty grandma grandpa granny grandad prof professor sir mx miss " +
    "senior junior lead chief principal analyst engineer manager director designer developer consultant " +
    "intern recruiter officer " +
    // Languages and nationalities: English capitalises them, and they are what someone
    // speaks or where something is from, not whom a log is about ("an English summary").
    "english german swedish french spanish italian dutch danish norwegian finnish polish portuguese russian " +
    "ukrainian chinese japanese korean arabic hindi turkish greek czech hungarian romanian hebrew american " +
    "british european african asian canadian australian indian irish scottish welsh swiss austrian belgian"
  ).split(" "),
);

/** A word that is no name: a stop word, a common capitalised word or a label. */
export const isStop = (word: string) => {
  const w = word.toLowerCase();
  // "No more Tuesdays", "Mondays are for planning": a weekday in the plural is still no one.
  return STOP_WORDS.has(w) || COMMON.has(w) || COMMON.has(w.replace(/s$/u, "")) || NOT_SPEAKERS.has(w);
};

/** A name as counted: without a possessive `'s` or a trailing hyphen or quote. */
export function cleanName(raw: string): string {
  return raw.replace(/['’]s$/u, "").replace(/[-'’]+$/u, "");
}
