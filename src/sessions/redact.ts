/**
 * Secret redaction for session digests: transcripts end up in git and in the search index,
 * so anything that looks like a credential is replaced before it is written anywhere.
 * Patterns are deliberately broad: a false positive costs a word, a false negative leaks a key.
 */
interface Rule {
  kind: string;
  pattern: RegExp;
  /** Replacement; `$1` keeps a captured prefix (e.g. `password=`). */
  replace: string;
}

const RULES: readonly Rule[] = [
  {
    kind: "private-key",
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replace: "[REDACTED:private-key]",
  },
  { kind: "api-key", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: "[REDACTED:api-key]" },
  { kind: "aws-key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: "[REDACTED:aws-key]" },
  {
    kind: "github-token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: "[REDACTED:github-token]",
  },
  { kind: "slack-token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: "[REDACTED:slack-token]" },
  { kind: "google-key", pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: "[REDACTED:google-key]" },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: "[REDACTED:jwt]" },
  { kind: "bearer", pattern: /\b(Bearer\s+)(?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,}/gi, replace: "$1[REDACTED:token]" },
  {
    kind: "password",
    // key=value / key: value with a credential-ish key; the key stays so the sentence still reads.
    pattern:
      /\b((?:password|passwd|pwd|passphrase|secret|client[_-]?secret|api[_-]?key|access[_-]?token|auth[_-]?token|token)["']?\s*[:=]\s*)(?!\[REDACTED)("[^"\s]+"|'[^'\s]+'|[^\s,;]+)/gi,
    replace: "$1[REDACTED:secret]",
  },
  {
    kind: "url-credentials",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)(?!\[REDACTED)[^\s@/]+(@)/gi,
    replace: "$1[REDACTED:secret]$2",
  },
];

export interface Redacted {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** Replace every secret-looking token. Idempotent: redacting twice changes nothing more. */
export function redactSecrets(text: string): Redacted {
  let out = text;
  let count = 0;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      count++;
      const groups = args.slice(1, -2) as (string | undefined)[];
      return rule.replace.replace(/\$(\d)/g, (_m, n: string) => groups[Number(n) - 1] ?? "");
    });
  }
  return { text: out, count };
}
