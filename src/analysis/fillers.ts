import { STOP_WORDS } from "./stopwords.js";

/**
 * Words of talk that say nothing of what a belief is about (speech-to-text, chat): "like",
 * "um", "yeah", "gonna" ("going" is a stop word), "pretty" in "pretty sure", "well" ("great
 * well mostly great", "money well spent"). Two voice memos that both say "like" and "gonna"
 * are not one topic. Matching only (reflect/text.ts): recall
 * keeps them, a query for "what do I like" means it.
 */
export const SPEECH_FILLERS: ReadonlySet<string> = new Set(
  "like well um umm uh uhh erm er yeah yep oh ok okay gonna wanna gotta kinda sorta pretty literally".split(" "),
);

/**
 * Stop words as a phone or a hurried thumb writes them, without the apostrophe: "didnt", "wont",
 * "im", "thats". Only the "n't" forms and a few that are no other word: "well", "were", "shell", "its" stay
 * words ("cant" and "wont" are rare enough as nouns to go).
 */
export const UNAPOSTROPHED_STOP_WORDS: ReadonlySet<string> = new Set(
  [...STOP_WORDS]
    .filter((w) => /n't$/.test(w) || ["i'm", "i've", "you're", "they're", "that's", "there's", "what's"].includes(w))
    .map((w) => w.replace("'", "")),
);

/** A phone or a thumb drops the apostrophe: "didnt", "wont", "cant" are "didn't", "won't", "can't" (replace with "$1n't"). */
export const UNAPOSTROPHED_NOT = /\b(is|are|was|were|do|does|did|has|have|had|could|would|should|wo|ca)nt\b/g;
