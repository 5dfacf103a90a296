/**
 * Secret redaction for session digests: transcripts end up in git and in the search index,
 * so anything that looks like a credential is replaced before it is written anywhere. The
 * rules are data (secret-rules.ts); this file applies them. A false positive costs a word,
 * a false negative leaks a key, but over-redaction destroys memory too: commit ids, UUIDs,
 * plain URLs and the word "password" alone stay.
 */
import { SECRET_RULES, type SecretRule } from "./secret-rules.js";

export interface Redacted {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

// Zero-width and soft-hyphen characters pasted inside a key hide it from every pattern. They are
// dropped between two visible ASCII characters only, so emoji ZWJ sequences (woman + ZWJ + laptop) stay intact.
const ZERO_WIDTH = /(?<=[\x21-\x7e])(?:\u200b|\u200c|\u200d|\u2060|\ufeff|\u00ad|\u180e)+(?=[\x21-\x7e])/g;

export function stripZeroWidth(text: string): string {
  return text.replace(ZERO_WIDTH, "");
}

type Groups = { pre?: string; q?: string; post?: string; value?: string };

function applyRule(text: string, rule: SecretRule): { text: string; count: number } {
  let count = 0;
  const out = text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const last = args[args.length - 1];
    const g: Groups = typeof last === "object" && last !== null ? (last as Groups) : {};
    if (rule.accept) {
      const m = Object.assign([match], { groups: g, index: 0, input: text }) as unknown as RegExpExecArray;
      if (!rule.accept(g.value ?? match, m)) return match;
    }
    count++;
    const q = g.q ?? "";
    return `${g.pre ?? ""}${q}[REDACTED:${rule.label}]${q}${g.post ?? ""}`;
  });
  return { text: out, count };
}

/** Replace every secret-looking token. Idempotent: redacting twice changes nothing more. */
export function redactSecrets(text: string): Redacted {
  let out = stripZeroWidth(text);
  let count = 0;
  for (const rule of SECRET_RULES) {
    const r = applyRule(out, rule);
    out = r.text;
    count += r.count;
  }
  return { text: out, count };
}

/**
 * Whether a secret runs across the seam between `before` and `after` (two content parts of
 * one message, which a streaming model may split anywhere): some rule matches the joined
 * text on both sides of the seam.
 */
export function secretAcrossSeam(before: string, after: string): boolean {
  const tail = /\S+$/.exec(before)?.[0];
  const head = /^\S+/.exec(after)?.[0];
  if (!tail || !head) return false;
  const joined = stripZeroWidth(tail + head);
  const seam = stripZeroWidth(tail).length;
  for (const rule of SECRET_RULES) {
    for (const m of joined.matchAll(rule.pattern)) {
      const crosses = m.index < seam && m.index + m[0].length > seam;
      if (crosses && (!rule.accept || rule.accept(m.groups?.value ?? m[0], m))) return true;
    }
  }
  return false;
}
