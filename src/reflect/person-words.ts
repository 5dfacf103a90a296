// The word lists of holder.ts (data): lower-case words that name a person by kinship or role.

/**
 * Kinship words English uses as a name, with no "my" or "the" before them: "mum reckons ...",
 * "dad still says ...", "gran admits ...". Written lower case they still name one person.
 */
export const KIN_NAMES: readonly string[] = (
  "mum mom mam mummy mommy mother dad daddy father nan nana nanna nanny gran granny grandma grandmother " +
  "grandad granddad grandpa grandfather"
).split(" ");

/**
 * Nouns that name a person by relation or role after "my", "our" or "the": "my sister thinks ...",
 * "the chef says ...", "our landlord reckons ...". Things ("the report says") are not in it.
 */
export const PERSON_ROLES: readonly string[] = (
  "sister brother wife husband partner missus fiancé fiance fiancée fiancee boyfriend girlfriend son daughter " +
  "kid kids cousin niece nephew aunt auntie aunty uncle mother father mum mom dad stepmum stepdad " +
  "mother-in-law father-in-law sister-in-law brother-in-law grandma grandad grandpa granny nan gran " +
  "boss manager supervisor landlord landlady neighbour neighbor flatmate housemate roommate mate friend " +
  "colleague chef cook barista waiter waitress doctor gp nurse vet dentist plumber builder electrician " +
  "mechanic accountant lawyer solicitor teacher tutor coach trainer therapist vicar priest cofounder co-founder " +
  "gardener cleaner childminder babysitter receptionist midwife carer physio optician pharmacist caretaker " +
  "surveyor architect consultant headteacher principal"
).split(" ");
