/**
 * Short forms people write in notes for common words ("Dr", "appt", "mins", "cert"): a
 * question says "doctor" or "appointment" where the log has "saw Dr. Okafor" or "dentist
 * appt Tue", and the other way round. Each group is one word's spellings; a query word asks
 * for the others of its group (recall/lines.ts). Left out: short forms that are more often
 * another word ("no" for number, "doc" for a document, "app", "mo", "sec", "st", "co"), and
 * "photo": a word of its own that "pic" only adds noise to (LoCoMo).
 */
const GROUPS = [
  "doctor dr",
  "appointment appt",
  "minute min mins",
  "hour hr hrs",
  "week wk wks",
  "year yr yrs",
  "month mth mths",
  "certificate cert certs",
  "information info",
  "approximately approx",
  "department dept",
  "manager mgr",
  "government govt",
  "message msg msgs",
  "people ppl",
  "birthday bday",
  "temperature temp",
  "reference ref refs",
  "prescription rx",
  "medication medicine meds",
  "laboratory lab",
  "telephone phone",
  "generator genny",
  "refrigerator fridge",
  "professor prof",
  "apartment apt",
  "kilometre kilometer km",
  "kilogram kg",
  "veterinarian vet",
  "physiotherapist physiotherapy physio",
  "university uni",
  "lecture lec lecs",
  "mathematics maths math",
  "television tv",
  "thanks thx",
  // Short forms of tech notes; numeronyms count the letters between first and last ("k8s").
  "kubernetes k8s kube",
  "javascript js",
  "typescript ts",
  "database db",
  "repository repo",
  "configuration config",
  "documentation docs",
  "vegetable vegetables veg veggies",
  "internationalization internationalisation i18n",
  "localization localisation l10n",
];

/**
 * Nouns people use for one thing interchangeably in notes, that no query needs widened to:
 * "the rota" of March is "the schedule" of April. Only reflect's matching reads them
 * (sameThing), so an opinion restated in the other word is the same opinion.
 */
const SAME_THING = ["rota roster schedule"];

/** Each spelling -> its group, built once. */
const GROUP = new Map<string, readonly string[]>();
for (const g of GROUPS) {
  const words = g.split(" ");
  for (const w of words) GROUP.set(w, words);
}

/** The other spellings of a word's group ("doctor" -> ["dr"], "appts" -> ["appointment"]), else []. */
export function otherSpellings(word: string): string[] {
  const w = word.toLowerCase();
  const group = GROUP.get(w) ?? (w.endsWith("s") ? GROUP.get(w.slice(0, -1)) : undefined);
  if (!group) return [];
  const own = GROUP.has(w) ? w : w.slice(0, -1);
  return group.filter((s) => s !== own);
}

/** Each spelling or same-thing noun -> the first word of its group. */
const FIRST = new Map<string, string>();
for (const g of [...GROUPS, ...SAME_THING]) {
  const words = g.split(" ");
  for (const w of words) if (!FIRST.has(w)) FIRST.set(w, words[0]!);
}

/**
 * The one word a lower-case word stands for in matching: its group's full form ("k8s" ->
 * "kubernetes", "veggies" -> "vegetable", "roster" -> "rota"), a plural read as its singular;
 * else the word itself.
 */
export function sameThing(word: string): string {
  return FIRST.get(word) ?? (word.endsWith("s") ? FIRST.get(word.slice(0, -1)) : undefined) ?? word;
}
