// Lower-case words that name a person by kinship or role (data): holder.ts reads them as holders, prose.ts as the kin before a first name.

/**
 * Kinship words English uses as a name, with no "my" or "the" before them: "mum reckons ...",
 * "dad still says ...", "gran admits ...". Written lower case they still name one person.
 */
export const KIN_NAMES: readonly string[] = (
  "mum mom mam mummy mommy mother dad daddy father nan nana nanna nanny gran granny grandma grandmother " +
  "grandad granddad grandpa grandfather"
).split(" ");

/**
 * KIN_NAMES that name one and the same person, the writer's parent, however a log spells it
 * ("mum", "my mother", "Mom"): MEMORY.md's "Mum (Rita)" ties each of them to Rita. Grandparents'
 * words are not folded ("nan" and "gran" are often two people).
 */
export const PARENT_WORDS: readonly (readonly string[])[] = [
  "mum mom mam mummy mommy mother".split(" "),
  "dad daddy father".split(" "),
];

/** A kin name and the words naming the same person (itself alone when it has no synonyms). */
export const kinSynonyms = (word: string): readonly string[] => {
  const w = word.toLowerCase();
  return PARENT_WORDS.find((group) => group.includes(w)) ?? [w];
};

/**
 * A spouse or partner: the one person whose full name a writer puts on forms and bookings
 * ("my wife Ana", then "booked the dentist for Ana Silva"), so a kin word of these names no
 * second person of the same first name (shared-names.ts).
 */
export const SPOUSE_WORDS: readonly string[] =
  "wife husband partner missus fiancé fiance fiancée fiancee boyfriend girlfriend".split(" ");

/**
 * Kin and close relations written right before or after a first name ("my sister Jo", "Joan's
 * sister Pat", "Pat (my sister-in-law)"): a person the writer names by first name alone.
 */
export const KIN: readonly string[] = [
  ...SPOUSE_WORDS,
  ...(
    "sister brother mum mom mother dad father son daughter aunt auntie aunty uncle " +
    "cousin niece nephew gran granny grandma nan nana grandad grandpa grandson granddaughter stepson " +
    "stepdaughter stepmum stepdad neighbour neighbor " +
    "sister-in-law brother-in-law mother-in-law father-in-law son-in-law daughter-in-law"
  ).split(" "),
];

/**
 * Nouns that name a person by relation or role after "my", "our" or "the": "my sister thinks ...",
 * "the chef says ...", "our landlord reckons ...". Things ("the report says") are not in it.
 */
export const PERSON_ROLES: readonly string[] = [
  ...KIN,
  ...(
    "kid kids boss manager supervisor landlord landlady flatmate housemate roommate mate friend " +
    "colleague chef cook barista waiter waitress doctor gp nurse vet dentist plumber builder electrician " +
    "mechanic accountant lawyer solicitor teacher tutor coach trainer therapist vicar priest cofounder co-founder " +
    "gardener cleaner childminder babysitter receptionist midwife carer physio optician pharmacist caretaker " +
    "surveyor architect consultant headteacher principal " +
    // At work: "our cto is convinced ...", "the pm says ...", "my team lead reckons ...".
    "cto ceo cfo coo pm lead designer developer dev engineer intern"
  ).split(" "),
];

/** Roles written as initials, in capitals as often as not ("Owen is the CTO", "our PM"). */
export const INITIALS_ROLES: readonly string[] = ["cto", "ceo", "cfo", "coo", "pm"];
