/**
 * The one stop-word list (issue 12): English function words and question fillers that
 * carry no retrieval or matching signal. The FTS query builder (index/fts.ts), recall's
 * query understanding and reflect's similarity all drop these, so a word is noise in one
 * place exactly when it is noise in the others. Contractions appear whole ("don't", as a
 * query token keeps them) and as the parts FTS5's unicode61 tokenizer cuts them into
 * ("don", "t", "s").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each every few " +
    "for from further get got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers " +
    "herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more " +
    "most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own same " +
    "shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves " +
    "then there there's these they they'd they'll they're they've this those through to too under until up very was " +
    "wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom " +
    "why why's will with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves " +
    "s t don " +
    // question fillers: "tell me anything you remember about ..." asks, it does not search
    "tell know anything something thing things please show give us recall remember say said ever much many lot " +
    "happen happened happening going go went kind sort way recently lately"
  ).split(" "),
);

/**
 * Stop words that are nouns too: "show me" asks, "the flower show" names a thing. After
 * another noun they end a noun phrase ("the honey show" is no honey-seller's role: recall/roles.ts).
 */
export const NOUN_STOP_WORDS: ReadonlySet<string> = new Set(["show"]);

/**
 * Function words that neither STOP_WORDS nor WordNet (nouns, verbs, adjectives and adverbs
 * only) holds: still words of the language, so recall never takes one for a misspelling
 * (synonyms.ts isDictionaryWord): "whose" is no "those".
 */
export const OTHER_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "whose whoever whomever whatever whichever wherever whenever although though unless whether without within " +
    "toward towards among amongst beside besides upon shall mustn shouldn wouldn couldn weren doesn aren isn wasn " +
    "hasn haven hadn whereas whereby"
  ).split(" "),
);
