/**
 * Whether a fact is about an opinion at all, before any stance (pure): the matcher in
 * evolve.ts and the single-pair judge (judge.ts) use the same rule.
 */
import { namingWords, similarity } from "./text.js";
import { newForecast, type Topic, topicScore } from "./topic.js";

/** How a fact relates to an opinion, as the matcher (evolve.ts) found it. */
export type Relation = "restatement" | "topic";

/**
 * How a fact relates to an opinion (pure; the matcher in evolve.ts uses the same rule):
 * - restatement: an O fact of the opinion's holder that covers its topic (topic.ts);
 * - topic: a fact that is not another holder's opinion names the holder or a topic
 *   entity (tagged or in plain text) and shares content words with the opinion (any
 *   word when it shares a topic entity, else at least minSimilarity).
 */
export function relationOf(
  op: Topic,
  fact: Topic,
  factIsOpinion: boolean,
  minSimilarity: number,
  restate: number,
): Relation | undefined {
  const sameHolder = op.holder !== undefined && op.holder === fact.holder;
  if (factIsOpinion && sameHolder && topicScore(op, fact, { restateSimilarity: restate }) > 0) return "restatement";
  // The holder's forecast of another thing is another belief, not evidence on this one.
  if (factIsOpinion && sameHolder && newForecast(op, fact)) return undefined;
  // Someone else's opinion is their belief, not evidence about this holder's (it gets its own opinion).
  if (factIsOpinion && op.holder !== undefined && fact.holder !== undefined && !sameHolder) return undefined;
  const factAll = new Set([...fact.entities, ...(fact.holder === undefined ? [] : [fact.holder])]);
  const opAll = new Set([...op.entities, ...(op.holder === undefined ? [] : [op.holder])]);
  const unscoped = opAll.size === 0;
  let sharesTopicEntity = false;
  let sharesAny = unscoped;
  for (const e of factAll) {
    if (op.entities.has(e)) sharesTopicEntity = true;
    if (opAll.has(e)) sharesAny = true;
  }
  // The writer who reported someone's forecast also reports how it came out ("@Wren: the lottery
  // fund turned down the polytunnel bid" on "Ash figures the grant will come through"). When no
  // reporter is tagged ("per Ash, the grant will come through"), whoever reports the outcome does.
  const reportedOutcome =
    !factIsOpinion &&
    fact.outcome === true &&
    fact.holder !== undefined &&
    op.reporters !== undefined &&
    (op.reporters.has(fact.holder) || (op.reporters.size === 0 && op.forecasts === true)) &&
    op.subject !== undefined &&
    [...op.subject].some((w) => fact.words.has(w));
  if (reportedOutcome) return "topic";
  if (!sharesAny) return undefined;
  // A vague word ("new", "this week", "now") names nothing the two share.
  const [opWords, factWords] = [namingWords(op.words), namingWords(fact.words)];
  const sim = similarity(opWords, factWords);
  if (sim >= minSimilarity) return "topic";
  let shared = 0;
  for (const w of factWords) if (opWords.has(w)) shared++;
  if (sharesTopicEntity && shared > 0) return "topic";
  // An outcome for what a belief is about ("committee moved the defense to June 12" against
  // "defending in May is realistic"): news about it, however little else it shares.
  if (fact.outcome === true && op.subject !== undefined && [...op.subject].some((w) => fact.words.has(w))) {
    return "topic";
  }
  // Two shared words and some overlap: the judge still needs a cue or a closer wording to take a side.
  if (shared >= 2 && sim >= minSimilarity / 2) return "topic";
  return undefined;
}
