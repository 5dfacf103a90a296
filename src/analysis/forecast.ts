import { isForecast } from "./cues.js";
import { SPEECH_FILLERS } from "./fillers.js";
import { verbForms } from "./irregular.js";
import { porterStem } from "./stem.js";
import { STOP_WORDS } from "./stopwords.js";
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

/** The verb a forecast says will happen: "close" in "they're gonna close the school", "win" in "we'll win". */
const FORECAST_VERB =
  /\b(?:will|'ll|gonna|going to|bound to|about to)\s+(?:(?:definitely|probably|surely|actually|finally|just)\s+)?(?!be\b|have\b|get\b|go\b|do\b|make\b|take\b|need\b|want\b)(\p{L}{3,})\b/iu;

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w.length > 1);

/**
 * A plain fact says the forecast came true: the verb the forecast said will happen, in the past
 * ("they're gonna close the school for snow this week" / "the school closed for snow today"), not
 * negated, with another word of the forecast's ("snow"). Same words, no verb ("had a second
 * interview at the council" on "will get the council job") is news of the topic, not of the outcome.
 */
export function cameTrue(forecast: string, fact: string): boolean {
  const m = FORECAST_VERB.exec(forecast.replace(/[’‘]/g, "'"));
  if (m === null) return false;
  const verb = m[1]!.toLowerCase();
  const stem = porterStem(verb);
  const said = words(fact);
  const at = said.findIndex(
    (w, i) =>
      (verbForms(verb).includes(w) || (w.endsWith("ed") && porterStem(w) === stem)) &&
      !/^(?:not|never|didn't|didnt|hasn't|hasnt|haven't|havent|wasn't|wasnt|weren't|werent)$/.test(said[i - 1] ?? ""),
  );
  if (at < 0) return false;
  const rest = new Set(
    words(forecast.slice(m.index + m[0].length))
      .filter((w) => !STOP_WORDS.has(w) && !SPEECH_FILLERS.has(w))
      .map(porterStem),
  );
  return said.some((w, i) => i !== at && !STOP_WORDS.has(w) && rest.has(porterStem(w)));
}
