/**
 * The words a statement writes capitalised (names of tools, places, products) and how two
 * statements' names compare (pure): topic.ts anchors a belief on a name both write.
 */
import { fold } from "../analysis/tokens.js";
import { contentTokens } from "./text.js";

export interface Names {
  mid: Set<string>;
  lead: Set<string>;
}

/**
 * The words a text writes capitalised, as content tokens. Inside a sentence a capital
 * marks a name ("went with Rust", "doubt Kafka"); at a sentence's start it may be just
 * the start, so those are kept apart and count only when the other text has the word
 * mid-sentence too.
 */
export function writtenNames(text: string): Names {
  const names: Names = { mid: new Set(), lead: new Set() };
  // A word starts after no letter or digit: the "B" of "ward 7B" is no name of its own.
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])[\p{L}][\p{L}\p{N}'’-]*/gu)) {
    const word = m[0];
    // An identifier with a digit ("Q2", "q2", "v2") is a name however it is cased: terse notes write it lower case.
    const id = /^\p{L}+\d+$/u.test(word);
    if ((!id && !/^\p{Lu}/u.test(word)) || word === "I" || /^I['’]/.test(word)) continue;
    // A name that is also a common word ("Go") is still a name when written capitalised.
    const token = [...contentTokens(word)][0] ?? fold(word).replace(/['’].*$/, "");
    const before = text.slice(0, m.index).trimEnd();
    const lead = before === "" || /[.!?:;"“(\-–—*]$/.test(before);
    (lead ? names.lead : names.mid).add(token);
  }
  return names;
}

/** A name both texts write, mid-sentence in at least one of them. */
export function sharesName(a: Names | undefined, b: Names | undefined): boolean {
  if (!a || !b) return false;
  for (const n of a.mid) if (b.mid.has(n) || b.lead.has(n)) return true;
  for (const n of a.lead) if (b.mid.has(n)) return true;
  return false;
}

/** A name both texts write, wherever in the sentence. */
export function sharesAnyName(a: Names | undefined, b: Names | undefined): boolean {
  if (!a || !b) return false;
  for (const n of [...a.mid, ...a.lead]) if (b.mid.has(n) || b.lead.has(n)) return true;
  return false;
}

/** `a` writes mid-sentence at most one name `b` does not write (a detail: "cheaper to run in CI"). */
export function namesWithin(a: Names | undefined, b: Names | undefined): boolean {
  if (!a || !b) return false;
  let extra = 0;
  for (const n of a.mid) if (!b.mid.has(n) && !b.lead.has(n)) extra++;
  return extra <= 1;
}
