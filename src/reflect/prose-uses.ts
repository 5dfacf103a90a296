/**
 * How a name is used, beyond where it stands in a sentence (prose.ts): shops, towns and labels
 * are written with capitals as people are, but not the same ways. Pure.
 *  - A place or a shop comes after a place word: "a flat white at Costa", "Primark in Leeds",
 *    "moving to Leeds", "popped into Screwfix", "on Facebook". A person is
 *    too at times ("met Jordan at Screwfix", "dropped it round to Kev"), but a person also speaks,
 *    owns or keeps company ("Kev said", "Dale's mum", "with Freya"): a name written only after
 *    place words, and never so, is a place (prose-names.ts does not count those uses).
 *  - A label opens a line as a chat speaker does ("Netball: lost 14-9", "Update: boiler fixed"),
 *    but alone in its log, and the writer also writes the word in lower case ("netball Jess",
 *    "the update from the council"): no one's name is an ordinary word of the writer's.
 */

/**
 * A place word right before a name ("at", "in", "to" ...), as the 14 characters before it end.
 * Not "the": "the Grafana board" is a tool's, as "the Tesco hamper" is a shop's.
 */
const PLACE_BEFORE =
  /(?:^|[^\p{L}\p{N}'’])(?:at|in|into|to|from|on|off|near|outside|opposite|past|via|round|around|towards)\s+$/iu;
/** Company kept: "with Freya", "w/ Dale". */
const WITH_BEFORE = /(?:^|[^\p{L}\p{N}'’])(?:with|w\/)\s+$/iu;

/**
 * "to" and "from" after a word that relates people: "married to Graham", "talked to Kev", "a text
 * from Jo", "heard from Sam". Those name someone, not somewhere.
 */
const TO_PERSON =
  /(?:^|[^\p{L}])(?:married|engaged|related|talk|talked|talking|speak|spoke|speaking|chat|chatted|said|say|says|wrote|write|sent|send|gave|give|lent|lend|passed|handed|report|reports|reported|introduced|text|texts|message|messages|email|emails|call|calls|letter|card|note|present|gift|heard|hear|love|thanks)\s+(?:to|from)\s+$/iu;

/** The text before a word at `at` ends with a place word. */
export const afterPlaceWord = (prose: string, at: number): boolean => {
  const before = prose.slice(Math.max(0, at - 24), at);
  return PLACE_BEFORE.test(before.slice(-14)) && !TO_PERSON.test(before);
};

/** The text before a word at `at` ends with "with". */
export const afterWith = (prose: string, at: number): boolean => WITH_BEFORE.test(prose.slice(Math.max(0, at - 8), at));

/** A plain `Word: words` line: no bold, no time, as a label is written (and a terse chat line). */
const PLAIN_SPEAKER = /^\s*(?:[-*+]\s+)?\p{Lu}[\p{L}\p{M}\p{N}_'’-]*\s*:\s+\S/u;
export const plainSpeakerLine = (text: string): boolean => PLAIN_SPEAKER.test(text);

/** The distinct lower-case words of a log (letters only, three or more), sorted. */
export function lowerWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}_'’-])\p{Ll}{3,}(?![\p{L}\p{N}_])/gu)) out.add(m[0]);
  return [...out].sort();
}
