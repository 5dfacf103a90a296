import { isForecast } from "./cues.js";
import { evaluation } from "./valence.js";

/**
 * What going wrong looks like in a forecast's own words: "the brunch menu is going to flop",
 * "it'll rain for the fête", "the fête will be rained off", "the launch will be a disaster",
 * "v2 is gonna slip past the 15th".
 * A forecast of failure is borne out by an outcome that went badly ("flopped", "rained off",
 * "called off") and answered by one that went well ("sold out", "went ahead").
 */
const FAILURE =
  /\b(?:flop|flops|bomb|bombs|tank|tanks|fail|fails|fall (?:through|flat|apart)|go (?:wrong|badly|bust|under|pear-shaped)|rain|rains|raining|pour|pours|pouring|chuck it down|bucket(?:ing)? down|(?:be )?(?:rained|washed) (?:off|out)|(?:be )?(?:cancelled|canceled|called off|scrapped)|(?:be )?(?:a )?(?:flop|washout|wash-out|write-off|non-starter|damp squib)|slip|slips|(?:be )?(?:late|delayed|postponed|pushed back)|miss (?:the |its |our |their )?(?:deadline|date|window)|overrun|run over|drag on|nobody (?:will )?(?:come|turn up|show up)|no one (?:will )?(?:come|turn up|show up))\b/iu;

/**
 * The statement forecasts that something will go wrong: a forecast (cues.ts isForecast) whose
 * words are of failure or complaint ("is going to flop", "will be a disaster"). Outcomes read
 * against it the other way round from a forecast of success.
 */
export function forecastsFailure(statement: string): boolean {
  if (!isForecast(statement)) return false;
  return FAILURE.test(statement.replace(/[’‘]/g, "'")) || evaluation(statement).sign < 0;
}
