// Which way a statement judges its subject from everyday praise and complaint words, so two
// statements that disagree without a "not" ("unfair" / "fine now") are read as disagreeing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answeredQuestion, findCues, isHypothetical, isPlan } from "./cues.js";
import { correctedTo, evaluatedSubject, evaluation, judgedOnScale, praisesIronically, recanting } from "./valence.js";

describe("evaluation: praise or complaint, a 'not' counted in its own clause", () => {
  it.each([
    ["the on-call rota is unfair to the two Berlin folks", -1],
    ["honestly the rota's fine now that Austin has weekends", 1],
    ["the split still isn't fair on Berlin", -1],
    ["onboarding docs aren't confusing anymore after the rewrite", 1],
    ["@Linear is the best tracker we've used", 1],
    ["switching off Linear would be a step back", -1],
    ["Vercel costs way too much for what we get", -1],
    ["the new plan is cheap enough for us", 1],
    ["design system v2 feels clunky, too many wrapper components", -1],
    ["to be fair, the build is slow", -1],
    ["the retro format is not bad at all", 0],
    ["great for dashboards, awful for logs", 0],
    ["we moved the standup to 10am", 0],
    ["release week felt calm this time", 1],
    ["the backlog is a chaotic mess", -1],
    ["sprint reviews are boring", -1],
    ["Grafana is great for dashboards, I could be wrong though", 1],
  ])("%s -> %i", (text, sign) => {
    expect(evaluation(text).sign).toBe(sign);
  });

  it.each([
    // Excess is a complaint, whatever the adjective; "too" meaning "also" is not.
    ["the onboarding survey is way too long-winded", -1],
    ["honestly the seminar reading list is too dense to finish", -1],
    ["the new intern is sharp, and fast too", 1],
    ["me too, the venue is great", 1],
    ["too early to tell with the redesign", 0],
    // "doesn't pull its weight": the idiom praises, its "not" turns it.
    ["the staging cluster doesn't pull its weight", -1],
    ["the night bus earns its keep", 1],
    // Done for show.
    ["quarterly OKR reviews are theatre", -1],
    ["the sign-off step is pure box-ticking", -1],
    // Praise said sarcastically is the complaint it means.
    ["oh great, another all-hands about synergy", -1],
    ["third reorg this year. love that for us", -1],
    ["four launches in one sprint, sure, totally realistic", -1],
    ["we skipped the staging deploy, what could possibly go wrong", -1],
    ["the bakery on Elm Street is hopeless on Sundays", -1],
    ["the new playlist at the climbing gym is meh", -1],
    ["that taxi ride cost a fortune", -1],
    ["credit where it's due, the plumber came the same day", 1],
    // ... and plain praise stays praise.
    ["great, the new build is much faster", 1],
  ])("%s -> %i", (text, sign) => {
    expect(evaluation(text).sign).toBe(sign);
  });

  it("never reads a sign from a text with no evaluative word, whatever else it says", () => {
    const neutral = fc.constantFrom("the", "rota", "Austin", "covers", "weekends", "since", "Feb", "not", "no", "we");
    fc.assert(
      fc.property(fc.array(neutral, { minLength: 1, maxLength: 12 }), (words) => {
        expect(evaluation(words.join(" ")).sign).toBe(0);
      }),
    );
  });
});

describe("evaluation: everyday spoken complaints, and the bin sense of 'rubbish'", () => {
  it.each([
    ["the new kettle is rubbish, takes an age to boil", -1],
    ["the replacement hinges are flimsy", -1],
    ["honestly the signal round here is dire", -1],
    ["that extension has been a money pit", -1],
    ["the weekly sync is kind of a time sink", -1],
    ["the new van saved them two hours a day", 1],
    ["took the rubbish out before the fox got to it", 0],
    ["rubbish collection moved to thursday", 0],
  ])("%s -> %i", (text, sign) => {
    expect(evaluation(text).sign).toBe(sign);
  });
});

describe("evaluation: a verb that is itself the judgement", () => {
  it.each([
    ["the blackout blind does nothing, still awake at 5", -1],
    ["the new password rules made no difference to phishing", -1],
    ["the school portal takes forever to load", -1],
    ["batch cooking on Sundays saves us loads", 1],
    // Fits the holder's life, or praise said as the manner.
    ["the earlier pickup suits me fine actually", 1],
    ["the Tuesday slot works for me", 1],
    ["the assembly was refreshingly brief", 1],
    ["the queue at the post office was mercifully short", 1],
  ])("%s -> %i", (text, sign) => {
    expect(evaluation(text).sign).toBe(sign);
  });
});

describe("evaluation: making no sense is a complaint, whatever its 'no' or 'not'", () => {
  it.each([
    "the parking permit system makes no sense",
    "the new bus timetable doesn't make any sense",
    "honestly the seating plan made zero sense",
    "the team's sprint board is a shambles",
  ])("%s", (text) => {
    expect(evaluation(text).sign).toBe(-1);
  });
});

describe("a writer's own concession asserts what follows", () => {
  it("reads 'I must admit' and 'I have to concede' as a concession, not a 'not'", () => {
    expect(findCues("I must admit the new bins are tidier").map((c) => c.cue)).toEqual(["must admit"]);
    expect(evaluation("I have to concede the one-way system is quicker").sign).toBe(1);
  });
});

describe("recanting: a cue that takes the whole belief back", () => {
  it("finds 'was wrong' and 'changed her mind', not a concession of what follows", () => {
    expect(recanting(findCues("Dev says he was wrong about Vercel"))?.cue).toBe("was wrong");
    expect(recanting(findCues("Rosa has changed her mind on the migration"))?.cue).toBe("changed her mind");
    expect(recanting(findCues("Rosa admitted the migration went smoother than she expected"))).toBeUndefined();
    expect(recanting(findCues("I take it back, Grafana dashboards are a mess"))?.cue).toBe("take it back");
    expect(recanting(findCues("scratch that, remote Fridays are fine"))?.cue).toBe("scratch that");
    expect(recanting(findCues("Grafana won me over for dashboards"))?.cue).toBe("won me over");
    expect(recanting(findCues("scrap that, the night bus is fine"))?.cue).toBe("scrap that");
    expect(recanting(findCues("Odile came round on the new landlord in the end"))?.cue).toBe("came round on");
    expect(recanting(findCues("Odile came around in the end, the flat is fine"))?.cue).toBe("came around in the end");
    // A visit is no change of mind.
    expect(recanting(findCues("Odile came round for tea and moaned about the landlord"))).toBeUndefined();
  });
});

describe("evaluatedSubject: what a '<subject> is <judgement>' statement judges", () => {
  it.each([
    ["the on-call rota is unfair to Berlin", "the on-call rota"],
    ["design system v2 feels clunky, too many wrappers", "design system v2"],
    ["the rota's fine now", "the rota"],
    ["the rota is owned by Austin", undefined],
    ["we should look at the rota again, it is unfair", undefined],
    // A lead-in before a comma is not the subject; a pronoun points elsewhere.
    ["honestly, the night bus is hopeless", "the night bus"],
    ["we argued for an hour, it was pointless", undefined],
    // Terse notes write the copula as "=".
    ["weekly syncs = mostly box-ticking", "weekly syncs"],
    ["weekly syncs = 30 min", undefined],
    // A phrase of time or cause before the subject is no part of it.
    ["since the update the bank app is painless", "the bank app"],
    ["after the rewiring the landing lights are flaky", "the landing lights"],
    // A verb that is itself the judgement: no effect, too long, time or money given back.
    ["the new mattress topper does nothing for my back", "the new mattress topper"],
    ["parents' evenings take way too long", "parents' evenings"],
    ["the slow cooker saves me an hour every weeknight", "the slow cooker"],
    ["the slow cooker takes the stew off my hands", undefined],
    // Texting's "r" is "are"; "R" is a language.
    ["the night buses r unreliable after 11", "the night buses"],
    ["R is nicer than SPSS for plots", "R"],
    // Terse notes leave the copula out; a plain note still judges nothing.
    ["printer in the library still broken", "printer in the library"],
    ["gym showers not exactly warm", undefined],
    ["we still need to book the minibus", undefined],
  ])("%s -> %s", (text, subject) => {
    expect(evaluatedSubject(text)).toBe(subject);
  });
});

describe("isPlan: an intention is no belief", () => {
  it.each([
    ["going to try a rota where Austin covers the weekends", true],
    ["We're planning to pilot async standups in May", true],
    ["let's ask Dev to price out Netlify", true],
    ["I'll look into the Stripe fees next week", true],
    ["gonna move the retro to thursdays from next week", true],
    ["we're going to drop the 4pm sync", true],
    ["the launch will move conversions", false],
    ["the offsite is going to add nothing", false],
    ["going to be a tight quarter", false],
    ["the rota is going to be unfair again once Austin leaves", false],
  ])("%s -> %s", (text, plan) => {
    expect(isPlan(text)).toBe(plan);
  });
});

describe("isHypothetical: a change talked about, not made", () => {
  it.each([
    ["switching off Linear would be a step back", true],
    ["moving away from Notion would honestly be a relief", true],
    ["if we ever moved off Heroku we'd lose review apps", true],
    ["considering dropping the Friday demo", true],
    ["we moved off Heroku in March", false],
    ["switched the queue from Kafka to Postgres", false],
  ])("%s -> %s", (text, hypothetical) => {
    expect(isHypothetical(text)).toBe(hypothetical);
  });
});

describe("judgedOnScale: what a statement judges, and on which scale", () => {
  it.each([
    ["the campus pool is overpriced", { subject: "the campus pool", scale: "price" }],
    ["a pool membership is not exactly cheap", { subject: "a pool membership", scale: "price" }],
    ["the night bus feels sluggish", { subject: "the night bus", scale: "speed" }],
    ["the night bus is great", undefined],
    ["the night bus is cheap but slow", { subject: "the night bus", scale: "price" }],
    ["took the night bus home", undefined],
    // Price against what it buys is the price scale too; a general word beside it does not hide it.
    ["the school dinners are good value", { subject: "the school dinners", scale: "price" }],
    [
      "the leisure centre cafe sandwich was cheap and nice",
      { subject: "the leisure centre cafe sandwich", scale: "price" },
    ],
    ["the taxi app is poor value", { subject: "the taxi app", scale: "price" }],
    ["the union bar not exactly cheap these days", { subject: "the union bar", scale: "price" }],
    ["the gym upgrade is a waste of money", { subject: "the gym upgrade", scale: "price" }],
    ["the night bus is crawling again", { subject: "the night bus", scale: "speed" }],
    ["the night bus was crawling with students", undefined],
  ])("%s -> %j", (text, read) => {
    expect(judgedOnScale(text)).toEqual(read);
  });
});

describe("praisesIronically", () => {
  it("finds praise said sarcastically, and only that", () => {
    expect(praisesIronically("fantastic... another vendor security questionnaire")).toBe(true);
    expect(praisesIronically("two people covering five clients, yeah, very sustainable")).toBe(true);
    expect(praisesIronically("fantastic turnout at the meetup")).toBe(false);
    expect(praisesIronically("sure, I can cover Friday")).toBe(false);
  });

  it("reads a closing 'Great planning.' after what went wrong as sarcasm, and the same words alone as praise", () => {
    expect(praisesIronically("The venue double-booked us again. Brilliant organisation.")).toBe(true);
    expect(praisesIronically("HR sent the pay slips to the wrong team! Great communication, everyone.")).toBe(true);
    expect(evaluation("the school run got moved to 7:40. Superb timing.").sign).toBe(-1);
    expect(praisesIronically("Great teamwork on the launch")).toBe(false);
    expect(praisesIronically("Excellent planning by Dana made the move painless")).toBe(false);
  });

  it("reads praise on both ends of a mishap as sarcasm, and either end alone as meant", () => {
    expect(praisesIronically("Brilliant, the printer ate my payslip again. Love it.")).toBe(true);
    expect(evaluation("Oh great, third fire alarm this week. Just perfect.").sign).toBe(-1);
    expect(praisesIronically("Great, the lift works again")).toBe(false);
    expect(praisesIronically("The new bike shed is great. Love it.")).toBe(false);
  });

  it("reads praise on both ends of news that something works again as meant", () => {
    expect(praisesIronically("Great, the lift works again, lovely")).toBe(false);
    expect(evaluation("Great, the lift works again, lovely").sign).toBe(1);
    expect(evaluation("brilliant, the wifi has been up all week, love it").sign).toBe(1);
    expect(evaluation("Perfect, the boiler is fixed. Brilliant.").sign).toBe(1);
    // A mishap between them is still sarcasm, though it says "again".
    expect(evaluation("Great, the lift broke again, lovely").sign).toBe(-1);
  });

  it("reads the same bookends dictated without their punctuation, and a closing 'great X that'", () => {
    expect(praisesIronically("oh brilliant the boiler packed in again on the coldest night, great timing that")).toBe(
      true,
    );
    expect(evaluation("wonderful my train got cancelled again, lovely").sign).toBe(-1);
    expect(praisesIronically("Perfect, the parcel went to next door again, great service there")).toBe(true);
    // One end alone, or praise words inside the sentence, are meant.
    expect(praisesIronically("great the boiler is fixed")).toBe(false);
    expect(praisesIronically("the boiler is fixed, great job that")).toBe(false);
    expect(praisesIronically("great value for a boiler, fitted same day")).toBe(false);
  });
});

describe("correctedTo: a statement that takes back what it just said", () => {
  it("returns what follows the take-back when something came before it", () => {
    expect(correctedTo("the lift works again. scratch that, stuck between floors")).toBe("stuck between floors");
    expect(correctedTo("boiler's fixed scrap that it's leaking again")).toBe("it's leaking again");
    // A take-back that opens the line points at an earlier one; "about" names what it takes back.
    expect(correctedTo("scratch that, the lift is fine")).toBeUndefined();
    expect(correctedTo("ok scrap that about the lift, it's fine")).toBeUndefined();
    expect(correctedTo("the lift is fine")).toBeUndefined();
  });
});

describe("answeredQuestion: a belief put as a question and answered at once", () => {
  it("returns the question when an answer follows it, and nothing for a plain question", () => {
    expect(answeredQuestion("school run stressful? not anymore, the lollipop man is back")).toBe(
      "school run stressful",
    );
    expect(answeredQuestion("Is the 18 bus still the quickest? yep, by ten minutes")).toBe(
      "Is the 18 bus still the quickest",
    );
    expect(answeredQuestion("is the 18 bus still the quickest?")).toBeUndefined();
    expect(answeredQuestion("the 18 bus is quickest, no doubt")).toBeUndefined();
  });
});

describe("praise closing a mishap is sarcasm; closing praise of anything else is meant", () => {
  it.each([
    ["drill battery died halfway through a ceiling, brilliant", true],
    ["the van's in the garage again, great stuff", true],
    ["the card machine crashed twice at lunch. Lovely.", true],
    ["ran 10k before work, brilliant", false],
    ["the lift broke down on monday but it's working again, lovely", false],
  ])("%s -> %s", (text, ironic) => {
    expect(praisesIronically(text)).toBe(ironic);
    if (ironic) expect(evaluation(text).sign).toBe(-1);
  });
});

describe("a subject that names a scale, and a verb of liking, say what is judged", () => {
  it("'CEF's prices are a joke' judges on price", () => {
    expect(judgedOnScale("CEF's prices are a joke these days")).toEqual({ subject: "CEF's", scale: "price" });
    expect(judgedOnScale("the van was a joke")).toBeUndefined();
  });
  it("'starting to like the new van, ...' judges the new van", () => {
    expect(evaluatedSubject("starting to like the new van, it's dead comfy on the long runs")).toBe("the new van");
    expect(evaluatedSubject("really hate the standup bot")).toBe("the standup bot");
  });
});

describe("praise opening a mishap is sarcasm; opening praise of anything else is meant", () => {
  it.each([
    ["Wonderful, the dishwasher broke down again on the day the in-laws came", true],
    ["Very nice, the boiler is showing a fault again, two days before Christmas", true],
    ["Great, another power cut in the middle of the match", true],
    ["Great, the lift works again", false],
    ["Nice, the new sofa arrived a day early", false],
    ["Very good, the plumber fixed the leak in an hour", false],
  ])("%s -> %s", (text, ironic) => {
    expect(praisesIronically(text)).toBe(ironic);
    if (ironic) expect(evaluation(text).sign).toBe(-1);
  });
});

describe("everyday praise and complaint of people and services", () => {
  it.each([
    ["our new GP is very thorough", 1],
    ["the locum was capable enough", 1],
    ["hats off to the caretaker, the boiler's fixed", 1],
    ["click and collect is really convenient", 1],
    ["the council's bin service is pathetic", -1],
    ["the landlord's agent is hopeless", -1],
    ["the new parking rules are inconvenient", -1],
  ])("%s -> %i", (text, sign) => {
    expect(evaluation(text).sign).toBe(sign);
  });
});

describe("a person judged by a pronoun in a later clause", () => {
  it("reads 'X did Y, hats off to him' as judging X", () => {
    expect(evaluatedSubject("Dolores sorted the rota out in a day, fair play to her, brilliant")).toBe("Dolores");
    expect(evaluatedSubject("Okafor got the boiler fixed before the frost, hats off to him")).toBe("Okafor");
    // Not a person, or no judgement after: nothing judged.
    expect(evaluatedSubject("the boiler got fixed before the frost, hats off to him")).toBeUndefined();
    expect(evaluatedSubject("The boiler got fixed before the frost, hats off to him")).toBeUndefined();
    expect(evaluatedSubject("Okafor got the boiler fixed, then he went home")).toBeUndefined();
  });
});

describe("closing praise of a service after a mishap, and a word for a cheat", () => {
  it.each([
    ["the broadband dropped out twice during my interview, very good service they are giving", true],
    ["Thames Water cut the power to the pumps again, great service you provide", true],
    ["the engineer fixed it in ten minutes, very good service they are giving", false],
  ])("%s -> %s", (text, ironic) => {
    expect(praisesIronically(text)).toBe(ironic);
  });
  it("reads 'a fraud', 'a crook' as complaint of a person", () => {
    expect(evaluation("that builder is a total fraud").sign).toBe(-1);
    expect(evaluation("the new landlord is a crook").sign).toBe(-1);
  });
});
