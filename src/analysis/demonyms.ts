/**
 * A country and the adjective of its people ("Portugal" / "Portuguese", "Spain" /
 * "Spanish"): a question says "before crossing into Portugal" where the log has "before the
 * Portuguese border", or "the Dutch couple" where it has "from the Netherlands". A query
 * word asks for the other word of its pair (recall/lines.ts), as for a short form
 * (abbreviations.ts). Left out: pairs where one word is more often something else
 * ("turkey" the bird, "china" the plates, "polish" the verb, "guinea").
 */
const PAIRS = [
  "portugal portuguese",
  "spain spanish",
  "france french",
  "germany german",
  "italy italian",
  "netherlands holland dutch",
  "belgium belgian",
  "switzerland swiss",
  "austria austrian",
  "greece greek",
  "croatia croatian",
  "hungary hungarian",
  "romania romanian",
  "sweden swedish",
  "norway norwegian",
  "denmark danish",
  "finland finnish",
  "iceland icelandic",
  "ireland irish",
  "scotland scottish",
  "wales welsh",
  "england english",
  "britain british",
  "morocco moroccan",
  "egypt egyptian",
  "india indian",
  "japan japanese",
  "korea korean",
  "vietnam vietnamese",
  "thailand thai",
  "mexico mexican",
  "canada canadian",
  "brazil brazilian",
  "argentina argentinian argentine",
  "australia australian",
];

const PAIR = new Map<string, readonly string[]>();
for (const p of PAIRS) {
  const words = p.split(" ");
  for (const w of words) PAIR.set(w, words);
}

/** The other words of a country's pair ("portugal" -> ["portuguese"], "Dutch" -> ["netherlands", "holland"]), else []. */
export function demonymPair(word: string): string[] {
  const w = word.toLowerCase();
  return PAIR.get(w)?.filter((x) => x !== w) ?? [];
}
