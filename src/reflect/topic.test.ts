// Whose belief a statement is: the person before the colon, unless the statement itself
// says it reports someone else's ("Priya thinks ...", "per @Tomasz, ...").
import { describe, expect, it } from "vitest";
import { reportedClaim } from "./holder.js";
import { attributedTo, holderOf, KnownNames, topicOf, topicScore, writtenNames } from "./topic.js";

describe("the thing a statement judges", () => {
  it("reads an empty head noun ('system', 'situation') as the thing its modifier names", () => {
    expect(topicOf(["Sam"], "the new booking system is a nightmare").judged).toBe(
      topicOf(["Sam"], "the booking is fine now they updated it").judged,
    );
    expect(topicOf(["Sam"], "the parking situation is dire").judged).toBe(
      topicOf(["Sam"], "parking is easy these days").judged,
    );
    // Praise at both ends of news that it works again judges the thing that works.
    expect(topicOf(["Sam"], "the preprod environment keeps falling over").judged).toBe(undefined);
    expect(topicOf(["Sam"], "the preprod environment is unreliable").judged).toBe(
      topicOf(["Sam"], "Brilliant, preprod has been up since monday, love it").judged,
    );
    // A thing of its own stays itself: the coffee machine is not the coffee.
    expect(topicOf(["Sam"], "the coffee machine is unreliable").judged).not.toBe(
      topicOf(["Sam"], "the coffee is awful").judged,
    );
  });
});

describe("holderOf: a belief reported for someone else", () => {
  it.each([
    [["Hannah", "Priya"], "Priya thinks async standups will leave new hires feeling cut off", "priya"],
    [["Hannah", "Jonas"], "according to @Jonas, the Adyen migration is a waste of a quarter", "jonas"],
    [["Ruth", "Tomasz"], "per @Tomasz, the ingest service should move to Go", "tomasz"],
    [["Ruth", "Mara"], "as @Mara put it, the offsite in Porto is a waste of money", "mara"],
    [["Ruth", "Dana"], "@Dana's view: the Q2 roadmap is too ambitious", "dana"],
    [["Ruth", "Ines"], "@Ines strongly believes the Lisbon hub should be our second office", "ines"],
    [["Ruth", "Li"], '"Li is convinced the cache is the bottleneck"', "li"],
  ])("%j: %s -> %s", (entities, content, holder) => {
    expect(holderOf(entities, content)).toBe(holder);
  });

  it("attributes a belief to a person nobody tagged, named the way notes name people", () => {
    expect(holderOf(["Ruth"], "Dana believes the Q2 roadmap is too ambitious")).toBe("dana");
    expect(holderOf(["Kit"], "my manager Rosa thinks the migration is a mistake")).toBe("rosa");
    expect(holderOf(["Kit"], "our new CTO, Ilse, is convinced we over-hired")).toBe("ilse");
    expect(holderOf(["Kit"], "Dev said on the call that Vercel is overpriced")).toBe("dev");
    expect(holderOf(["Kit"], "Tomás mentioned he's not convinced the rewrite buys us anything")).toBe("tomás");
    expect(holderOf(["Kit"], "Rosa keeps saying the migration was the wrong call")).toBe("rosa");
    expect(holderOf([], "Dev says he was wrong about Vercel")).toBe("dev");
    expect(holderOf(["Kit"], "Halima claims the survey undercounts renters")).toBe("halima");
    for (const said of [
      "Per Rosa, the reorg was rushed",
      "the reorg was rushed, says Rosa",
      "the reorg was rushed — Rosa thinks",
      "Rosa was adamant that the reorg was rushed",
      "Rosa is pretty sure the reorg was rushed",
      "Rosa's convinced the reorg was rushed",
      "heard from Rosa that the reorg was rushed",
      "Rosa doesn't think the reorg was rushed",
      "Rosa and Dev both think the reorg was rushed",
    ]) {
      expect(holderOf(["Kit"], said), said).toBe("rosa");
    }
  });

  it("gives a person's holding to a belief or letting it go to that person, tagged or not", () => {
    for (const said of [
      "Ingrid doubled down: the pricing page needs a rewrite first",
      "Ingrid changed her mind about the pricing page, it can wait",
      "Ingrid finally came around on the pricing page rewrite",
      "Ingrid still stands by the pricing page rewrite",
      "my cofounder Ingrid backtracked on the pricing page",
      "Ingrid's come around on the pricing page",
      "apparently Ingrid thinks the pricing page needs a rewrite",
      "Ingrid has always said the pricing page needs a rewrite",
    ]) {
      expect(holderOf(["Sam"], said), said).toBe("ingrid");
    }
    // A thing does not double down or come around: "Kafka came around" is no one's report.
    expect(holderOf(["Sam"], "the pricing page came around again in review")).toBe("sam");
  });

  it("gives a belief to a person named by kinship or role, or by a name written lower case", () => {
    for (const [said, holder] of [
      ["dad reckons the new bypass will never get built", "dad"],
      ["Nan still says the old surgery was better run", "nan"],
      ["my brother thinks the season tickets are a rip off", "brother"],
      ["our landlord says the damp is our fault", "landlord"],
      ["the head gardener feels the lawn needs another year", "gardener"],
      ["the vet, to be fair, says the diet is working", "vet"],
      ["my flatmate changed her mind about the heating", "flatmate"],
      ["jonas reckons the cutover will slip", "jonas"],
      ["ines admits the old dashboard was clearer", "ines"],
    ] as const) {
      expect(holderOf(["Sam"], said), said).toBe(holder);
    }
    // Written lower case, a name tagged on the statement is that entity.
    expect(holderOf(["Sam", "Ines"], "ines admits the old dashboard was clearer")).toBe("ines");
    // No one in particular, a pronoun, a thing: the writer's.
    for (const said of [
      "everyone reckons the cutover will slip",
      "management thinks the cutover will slip",
      "she thinks the cutover will slip",
      "the report says the cutover will slip",
      "my gut says the cutover will slip",
      "jonas says the cutover will slip",
      "the weather feels off today",
      "still thinks the cutover will slip",
      "really reckons the cutover will slip",
      "kinda thinks the cutover will slip",
    ]) {
      expect(holderOf(["Sam"], said), said).toBe("sam");
    }
  });

  it("reads what was reported without the report", () => {
    expect(reportedClaim(["Sam"], "Nell is convinced that the show will be rained off")).toBe(
      "the show will be rained off",
    );
    expect(reportedClaim(["Sam"], "the reorg was rushed, says Rosa")).toBe("the reorg was rushed");
    expect(reportedClaim(["Sam"], "mum reckons sundays aren't worth opening")).toBe("sundays aren't worth opening");
    expect(reportedClaim(["Sam"], "sundays aren't worth opening")).toBeUndefined();
  });

  it("reads past an aside between the name and the verb", () => {
    expect(holderOf(["Sam"], "Ingrid, bless her, still insists the pricing page needs a rewrite")).toBe("ingrid");
    expect(holderOf(["Sam", "Ingrid"], "Ingrid, to be fair, says the pricing page can wait")).toBe("ingrid");
    // A list is no aside: "Monday, Tuesday, Friday thinks" reports nobody.
    expect(holderOf(["Sam"], "Monday, the pricing page, thinks about it later")).toBe("sam");
  });

  it("reads 'figures' as a person's guess, and 'X did ..., says ...' as X's word", () => {
    expect(holderOf(["Sam"], "Odile figures the landlord will cave on the rent")).toBe("odile");
    expect(holderOf(["Sam"], "Odile figured the heating would be fixed by now")).toBe("odile");
    expect(holderOf(["Sam"], "Odile has stopped chasing the deposit, says it's a lost cause")).toBe("odile");
    expect(holderOf(["Sam"], "Odile went very quiet on the move, said the timing is wrong")).toBe("odile");
    // Figures as a noun, working something out, a thing's figures: the writer's.
    expect(holderOf(["Sam"], "Revenue figures are up on last year")).toBe("sam");
    expect(holderOf(["Sam"], "Odile figured out the boiler timer, it's fine now")).toBe("sam");
    expect(holderOf(["Sam"], "the heating is broken again, says nothing about the landlord")).toBe("sam");
  });

  it("gives a view reported for a group as a whole to the group, not to the writer", () => {
    const group = holderOf(["Sam"], "the book club consensus is that the sequel was a let-down");
    expect(group).toBe("group:book-club");
    expect(holderOf(["Sam"], "Discord consensus: the patch ruined ranked")).toBe("group:discord");
    expect(holderOf(["Sam"], "consensus on the parents' chat is that the new head is too strict")).toBe(
      "group:parents-chat",
    );
    expect(holderOf(["Sam"], "the residents committee reckons the lift will never be fixed")).toBe(
      "group:residents-committee",
    );
    expect(holderOf(["Sam"], "the residents committee admits the lift has been fine since march")).toBe(
      "group:residents-committee",
    );
    // A group's view is not about the writer who reported it.
    expect([...topicOf(["Sam"], "the book club consensus is that the sequel was a let-down").entities]).toEqual([]);
    // No group named, or the writer's own verdict: the writer's.
    expect(holderOf(["Sam"], "my verdict: the sequel was a let-down")).toBe("sam");
    expect(holderOf(["Sam"], "the team lunch was a let-down")).toBe("sam");
  });

  it("keeps the writer as holder when an untagged capitalised word reports nothing a person believes", () => {
    // Things "say" and "feel" too: a tool's reading or a product's feel is the writer's belief.
    expect(holderOf(["Kit"], "Grafana says p99 is 300ms, too slow for checkout")).toBe("kit");
    expect(holderOf(["Kit"], "Postgres feels slow on the reporting queries")).toBe("kit");
    expect(holderOf(["Kit"], "Acme claims 99.9% uptime on the new plan")).toBe("kit");
    expect(holderOf(["Kit"], "Everyone thinks the offsite was worth it")).toBe("kit");
    expect(holderOf(["Kit"], "Finance says the budget is fine")).toBe("kit");
    expect(holderOf(["Kit"], "Engineers believe the reorg was rushed")).toBe("kit");
    expect(holderOf(["Kit"], "Monday thinks nothing of it")).toBe("kit");
    expect(holderOf(["Kit"], "told Rosa the roadmap is too ambitious")).toBe("kit");
  });

  it("keeps the writer as holder when the named person is not reported", () => {
    // Priya is what the belief is about, not whose it is.
    expect(holderOf(["Hannah"], "@Priya should lead the Q3 planning")).toBe("hannah");
    expect(attributedTo(["Ruth", "Per"], "performance reviews per quarter are too many")).toBeUndefined();
  });

  it("leaves the reporter out of what a reported belief is about", () => {
    const t = topicOf(["Hannah", "Priya"], "Priya thinks async standups will leave new hires feeling cut off");
    expect(t.holder).toBe("priya");
    expect([...t.entities]).toEqual([]);
  });
});

describe("topicScore: sarcasm and take-backs that name what a belief judges", () => {
  const k = { restateSimilarity: 0.45 };
  const ida = (s: string) => topicOf(["Ida"], s);
  it("ties a sarcastic line or a take-back naming the judged thing to the belief", () => {
    const belief = ida("the parents' WhatsApp is exhausting");
    expect(
      topicScore(belief, ida("The WhatsApp pinged 90 times before lunch. Brilliant organisation."), k),
    ).toBeGreaterThan(0);
    expect(
      topicScore(belief, ida("scratch that about the whatsapp calming down, 200 messages today"), k),
    ).toBeGreaterThan(0);
  });

  it("does not tie a plain mention of the thing, or sarcasm about another thing", () => {
    const belief = ida("the parents' WhatsApp is exhausting");
    expect(topicScore(belief, ida("posted the bake sale rota on the whatsapp"), k)).toBe(0);
    expect(topicScore(belief, ida("The bus was 40 minutes late. Brilliant organisation."), k)).toBe(0);
  });
});

describe("topicScore: a belief put as a question and answered, a ward number", () => {
  const k = { restateSimilarity: 0.45 };
  const ida = (s: string) => topicOf(["Ida"], s);
  it("ties the answer to the belief the question puts, not to one about a name in the reason", () => {
    const run = ida("the school run is too stressful");
    const head = ida("Mr Patel the head teacher is too rigid");
    const answer = ida("school run stressful? not anymore, Mr Patel opened the side gate");
    expect(topicScore(run, answer, k)).toBeGreaterThan(0);
    expect(topicScore(head, answer, k)).toBe(0);
  });

  it("reads the letter of a ward or a room number as no name of its own", () => {
    expect(writtenNames("the agency staff on 4C get no induction").mid.size).toBe(0);
    expect(
      topicScore(ida("visiting hours on 4C are too short"), ida("the agency staff on 4C don't get an induction"), k),
    ).toBe(0);
  });
});

describe("topicScore: one thing in other spellings or word forms", () => {
  const k = { restateSimilarity: 0.45 };
  const ida = (s: string) => topicOf(["Ida"], s);
  it("matches an abbreviation, an interchangeable noun and a word family with their other forms", () => {
    expect(
      topicScore(ida("our k8s cluster is overkill for three services"), ida("Kubernetes cluster still overkill"), k),
    ).toBeGreaterThan(0);
    expect(
      topicScore(ida("the cleaning roster is lopsided"), ida("the cleaning schedule is still lopsided"), k),
    ).toBeGreaterThan(0);
    expect(
      topicScore(ida("a zonal defence suits this squad"), ida("defending zonally suits the squad better"), k),
    ).toBeGreaterThan(0);
  });

  it("keeps look-alike words apart", () => {
    expect(topicScore(ida("the refund policy makes sense"), ida("we should send the refund form"), k)).toBe(0);
  });
});

describe("topicScore: praise or complaint of one thing is one belief", () => {
  const k = { restateSimilarity: 0.45 };
  const kit = (s: string) => topicOf(["Kit"], s);
  it("matches 'the on-call rota is unfair ...' with 'the rota is fine now ...', sharing no other word", () => {
    expect(
      topicScore(
        kit("the on-call rota is unfair to the two Berlin folks"),
        kit("the rota is fine now that Austin has weekends"),
        k,
      ),
    ).toBeGreaterThan(0);
    expect(
      topicScore(kit("design system v2 feels clunky"), kit("the design system is pretty smooth since the cleanup"), k),
    ).toBeGreaterThan(0);
  });

  it("matches judgements on one scale of things that share a word, in other words", () => {
    expect(
      topicScore(kit("the campus pool is overpriced"), kit("a pool membership is not exactly cheap"), k),
    ).toBeGreaterThan(0);
    expect(topicScore(kit("our CI is sluggish"), kit("CI runs are not what you'd call fast"), k)).toBeGreaterThan(0);
    // Another scale: another belief about a thing near it.
    expect(topicScore(kit("the campus pool is overpriced"), kit("the pool lockers are broken again"), k)).toBe(0);
  });

  it("ties a terse, sarcastic restatement to the belief by an identifier written in lower case", () => {
    expect(
      topicScore(
        kit("the H2 hiring plan is too aggressive"),
        kit("h2 = 9 new people on the payroll, sure, totally realistic"),
        k,
      ),
    ).toBeGreaterThan(0);
    // The same identifier, said plainly with nothing else shared, is not enough.
    expect(topicScore(kit("the H2 hiring plan is too aggressive"), kit("h2 offsite booked in Lisbon"), k)).toBe(0);
  });

  it("keeps judgements of different things apart, though they share a word", () => {
    expect(topicScore(kit("the new office is great"), kit("the office coffee is terrible"), k)).toBe(0);
    expect(topicScore(kit("the rota is unfair"), kit("going to try a rota where Austin covers weekends"), k)).toBe(0);
  });
});

describe("topicScore: a tagged thing named in both", () => {
  const k = { restateSimilarity: 0.45 };
  const known = new KnownNames([
    ["Kit", "2026-01-01"],
    ["Linear", "2026-01-01"],
  ]);
  const kit = (s: string) => topicOf(["Kit"], s, known);
  const best = topicOf(["Kit", "Linear"], "@Linear is the best tracker we've used", known);

  it("takes a statement about the whole thing, or a switch away from it, as the same belief", () => {
    expect(topicScore(best, kit("I'd pick Linear again in a heartbeat"), k)).toBeGreaterThan(0);
    expect(topicScore(best, kit("switching off Linear would be a step back"), k)).toBeGreaterThan(0);
    expect(topicScore(best, kit("we finally moved off Linear to save money"), k)).toBeGreaterThan(0);
  });

  it("keeps a statement about a part of it ('Linear's pricing') apart", () => {
    expect(topicScore(best, kit("Linear's pricing for guests is annoying"), k)).toBe(0);
  });
});

describe("holderOf: Indian English reports and a group named with 'all the'", () => {
  it("reads a title of respect after the name, 'is telling that' and 'is agreeing now that'", () => {
    expect(holderOf(["Anita"], "Sharma ji is telling that the new flyover will flood every monsoon")).toBe("sharma");
    expect(holderOf(["Anita"], "Meena aunty keeps telling everyone that the school fees will double")).toBe("meena");
    expect(holderOf(["Anita"], "even Priya is agreeing now that the night bus is safe")).toBe("priya");
    // Telling someone off, or a story, reports no view.
    expect(holderOf(["Anita"], "Priya is telling the kids a story about the flyover")).toBe("anita");
  });
  it("reads 'all the X members feel' as the group's view", () => {
    expect(holderOf(["Wren"], "all the allotment committee members feel the water charge is too high")).toMatch(
      /^group:/,
    );
    expect(holderOf(["Wren"], "all of the parents agree the trip is too expensive")).toMatch(/^group:/);
  });
});

describe("the thing a statement judges is the head before its modifier", () => {
  it("reads 'the X at/on/in Y' as X", () => {
    expect(topicOf(["Sam"], "the morning swim at the lido is glorious").judged).toBe(
      topicOf(["Sam"], "the swim was freezing today").judged,
    );
    expect(topicOf(["Sam"], "going vegan in January was a sensible move").judged).toBe(
      topicOf(["Sam"], "vegan is the best decision I made this year").judged,
    );
    // Still the thing of its own when nothing comes before the preposition.
    expect(topicOf(["Sam"], "the coffee machine is unreliable").judged).not.toBe(
      topicOf(["Sam"], "the coffee is awful").judged,
    );
  });
});
