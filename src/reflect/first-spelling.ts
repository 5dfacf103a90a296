/**
 * A page is named by the first spelling written (entitySpellings): a name the prose wrote
 * before any fact tagged it ("Priya came by" on Monday, `@priya` on Friday) names the page
 * `Priya.md`, on the night the fact comes as in one full run later. Only entities with no
 * page yet: a page keeps its name. Pure.
 */
import { entityKey } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import { compareFirst, type FirstSpelling } from "./prose-names.js";

/** Key -> the prose spelling written before the key's first fact, where it differs from the facts' spelling. */
export function proseFirst(
  facts: readonly Fact[],
  spellings: ReadonlyMap<string, string>,
  pages: Iterable<string>,
  prose: () => ReadonlyMap<string, FirstSpelling>,
): Map<string, string> {
  const out = new Map<string, string>();
  const paged = new Set([...pages].map(entityKey));
  const firstFact = new Map<string, FirstSpelling>();
  for (const f of facts)
    for (const e of f.entities) {
      const key = entityKey(e);
      if (paged.has(key)) continue;
      const at = { name: e, date: f.date, path: f.source.path, line: f.source.line };
      const best = firstFact.get(key);
      if (best === undefined || compareFirst(at, best) < 0) firstFact.set(key, at);
    }
  // A nightly's facts nearly all have pages: the prose is not asked.
  if (firstFact.size === 0) return out;
  const written = prose();
  for (const [key, first] of firstFact) {
    const said = written.get(key);
    if (said === undefined || said.name === spellings.get(key)) continue;
    if (compareFirst({ ...said, name: "" }, { ...first, name: "" }) < 0) out.set(key, said.name);
  }
  return out;
}
