// Known entity names, for reading their plain-text mentions (topic.ts): who a statement names without @.
import { fold, nameWords } from "../analysis/tokens.js";
import { entityKey } from "../retain/entities.js";

/**
 * Known entity names for plain-text mentions, keyed by their first word. Names shorter
 * than 4 characters are left out: "AI" or "Jo" written in prose are too often not the entity.
 */
export class KnownNames {
  private readonly byFirst = new Map<string, { key: string; words: string[]; since: string }[]>();

  /**
   * `names`: entity name -> the first date it was tagged. A name counts in plain text only
   * from that date on, so a run over a prefix of the logs reads each fact as a later full
   * run does (an incremental run equals a full one).
   */
  constructor(
    names: Iterable<readonly [string, string]>,
    /** Kin or role word -> the person MEMORY.md ties it to (role-ties.ts): who "mum reckons ..." is. */
    readonly roles?: ReadonlyMap<string, string>,
  ) {
    const first = new Map<string, { name: string; since: string }>();
    for (const [name, since] of names) {
      const key = entityKey(name);
      const prev = first.get(key);
      if (!prev || since < prev.since) first.set(key, { name, since });
    }
    for (const [key, { name, since }] of [...first].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const words = nameWords(name);
      if (words.length === 0 || words.join("").length < 4) continue;
      const list = this.byFirst.get(words[0]!) ?? [];
      list.push({ key, words, since });
      this.byFirst.set(words[0]!, list);
    }
  }

  /** The first date of every entity the facts tag. */
  static fromFacts(
    facts: Iterable<{ entities: readonly string[]; date: string }>,
    roles?: ReadonlyMap<string, string>,
  ): KnownNames {
    const out: [string, string][] = [];
    for (const f of facts) for (const e of f.entities) out.push([e, f.date]);
    return new KnownNames(out, roles);
  }

  /** entityKeys of the known names (known on `asOf`, when given) the text mentions in plain words. */
  mentioned(text: string, asOf?: string): string[] {
    return this.mentions(text)
      .filter((m) => asOf === undefined || m.since <= asOf)
      .map((m) => m.key);
  }

  /** Every known name the text mentions in plain words, in the order first seen, with the date it became known. */
  mentions(text: string): { key: string; since: string }[] {
    const words = fold(text)
      .replace(/['’]s\b/g, "")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0);
    const out = new Map<string, string>();
    for (let i = 0; i < words.length; i++) {
      for (const name of this.byFirst.get(words[i]!) ?? []) {
        if (!out.has(name.key) && name.words.every((w, j) => words[i + j] === w)) out.set(name.key, name.since);
      }
    }
    return [...out].map(([key, since]) => ({ key, since }));
  }
}
