/**
 * Misspellings in questions ("cluch", "ceasarean", "helth"): the words one edit away from a
 * word (a letter left out, added, changed, or two neighbours swapped), for recall to look up
 * among the words the memory holds (index/lines.ts vocabularyCounts). Generating the few
 * hundred neighbours of one word and asking the index for them costs the same on any corpus,
 * where comparing the word with every word of the vocabulary would not.
 */

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Words one edit (deletion, adjacent swap, substitution, insertion of a-z) from a lower-case a-z word; sorted, without the word itself. */
export function oneEditAway(word: string): string[] {
  if (!/^[a-z]+$/u.test(word)) return [];
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      if (tail.length > 0) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(word);
  return [...out].sort();
}
