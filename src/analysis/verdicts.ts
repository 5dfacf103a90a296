/**
 * Verdicts on a choice, as data (cues.ts matches them): the ones a doubt can be about, and
 * the ones that say a statement looks back on a choice already made.
 */

/**
 * Verdicts against a choice that a doubt can be about: "not sure Kafka was wrong", "not
 * convinced it was a bad idea" doubt the verdict, so they lean back toward the choice.
 */
export const DOUBTED_VERDICTS: readonly string[] = [
  "wrong",
  "mistaken",
  "a mistake",
  "the wrong call",
  "the wrong choice",
  "wrong call",
  "wrong choice",
  "wrong move",
  "a bad idea",
  "a bad call",
  "a bad choice",
  "bad idea",
  "bad call",
  "bad choice",
  "overkill",
  "a disaster",
  "a failure",
  "an error",
];

/**
 * Verdicts on a choice already made: "Pulumi was the right call", "going with Postgres
 * paid off". A statement with one is about the choice its subject names, however few
 * words it shares with an earlier statement of that belief (topic.ts anchors on the name).
 * Praise of a thing ("worth the ticket price") is not a verdict on a choice.
 */
export const CHOICE_VERDICTS: readonly string[] = [
  "the right call",
  "the right choice",
  "the right pick",
  "the right move",
  "the right decision",
  "the right bet",
  "a good call",
  "a good choice",
  "a good decision",
  "a good bet",
  "the best decision",
  "the best choice",
  "the best call",
  "the best move",
  "the best change",
  "the wrong call",
  "the wrong choice",
  "the wrong pick",
  "a mistake",
  "a bad call",
  "a bad idea",
  "paid off",
  "pay off",
  "pays off",
  "paying off",
  "worked out",
];

/**
 * What someone did that the writer never could ("got her to eat broccoli which I have never
 * managed", "something we couldn't do in a year"): praise of them, not a "never" (cues.ts AFFIRMING).
 */
export const OUTDONE =
  " (?:which|that|something) (?:i|we) (?:have |'ve |had |'d )?(?:never|couldn't|could not|could never|can't|cannot|haven't|have not|hadn't)(?: once| ever)? (?:managed?|pulled off|done|do|got|get|pull off)(?= )";
