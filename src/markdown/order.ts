import { cmp } from "./links.js";

/**
 * The one tie-break for anything that has a place in the memory: by path, then line, then
 * id. Total (two different things never compare equal), so a sort's output never follows
 * the order its input came in (DESIGN.md 1.2: same input, same bytes).
 */
export interface Place {
  path: string;
  line: number;
  /** What tells apart two things on one line (a fact id, a result key); "" when one line holds one thing. */
  id: string;
}

export function byPlace(a: Place, b: Place): number {
  return cmp(a.path, b.path) || a.line - b.line || cmp(a.id, b.id);
}

/**
 * A comparator: higher `score` first, ties by place. `place` reads the place of an item
 * (a line hit, a candidate, a fact). NaN scores sort last, so they cannot break totality.
 */
export function byScoreThenPlace<T>(score: (t: T) => number, place: (t: T) => Place): (a: T, b: T) => number {
  return (a, b) => {
    const x = score(a);
    const y = score(b);
    const d = (Number.isNaN(y) ? -Infinity : y) - (Number.isNaN(x) ? -Infinity : x);
    return (Number.isNaN(d) ? 0 : d) || byPlace(place(a), place(b));
  };
}
