import type { ZodIssue, ZodTypeAny } from "zod";

/**
 * Readable config errors: zod issues as `dotted.key: reason` lines (an unknown key named
 * in full with the nearest valid key), and JSON syntax errors with line and column.
 */

/** Levenshtein distance, for "did you mean" on a handful of short keys. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidate, if it is close enough to be a plausible typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Unwrap defaults, optionals and refinements down to the object schema that holds keys. */
function unwrap(schema: ZodTypeAny): ZodTypeAny {
  let s = schema;
  for (;;) {
    const def = s._def as { innerType?: ZodTypeAny; schema?: ZodTypeAny };
    if (def.innerType) s = def.innerType;
    else if (def.schema) s = def.schema;
    else return s;
  }
}

/** The keys the object at `path` accepts (empty when `path` does not lead to an object). */
export function keysAt(root: ZodTypeAny, path: readonly (string | number)[]): string[] {
  let s = unwrap(root);
  for (const key of path) {
    const shape = (s as { shape?: Record<string, ZodTypeAny> }).shape;
    const next = shape?.[String(key)];
    if (!next) return [];
    s = unwrap(next);
  }
  const shape = (s as { shape?: Record<string, ZodTypeAny> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** One line per problem; an unknown key gets its own line with the full dotted path. */
export function describeIssues(root: ZodTypeAny, issues: readonly ZodIssue[]): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const valid = keysAt(root, issue.path);
      for (const key of issue.keys) {
        const guess = nearest(key, valid);
        const where = [...issue.path, key].join(".");
        lines.push(
          `${where}: unknown key${guess ? ` (did you mean ${JSON.stringify(guess)}?)` : ""}` +
            (valid.length > 0 ? `; valid keys here: ${valid.join(", ")}` : ""),
        );
      }
    } else {
      lines.push(`${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
  }
  return lines;
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * Offset of the first JSON syntax error in `text` (undefined when it parses). V8 names a
 * position for most errors but not all ("Unexpected token '}', ... is not valid JSON"),
 * so a small scanner finds it for every message.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (at = i): never => {
    throw new JsonSyntaxAt(at);
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < " ") fail();
      i++;
      if (ch === '"') return;
      if (ch !== "\\") continue;
      const esc = text[i];
      if (esc === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail(i + 1);
        i += 5;
      } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
      else fail();
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === "-") fail();
    i += m![0].length;
  };
  const members = (close: string, member: () => void): void => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ",") fail();
      i++;
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      members("}", () => {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    } else if (ch === "[") members("]", value);
    else if (ch === '"') string();
    else if (ch === "t") literal("true");
    else if (ch === "f") literal("false");
    else if (ch === "n") literal("null");
    else number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    throw error;
  }
}

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}

/** A JSON.parse error as "line L, column C: reason" (the reason without V8's position text). */
export function describeJsonError(text: string, error: Error): string {
  const reason =
    error.message
      .replace(/\s*\(line \d+ column \d+\)/, "")
      .replace(/ (in JSON )?at position \d+/, "")
      .replace(/^(Unexpected token '.+?'), ".*" is not valid JSON$/s, "$1")
      .replace(/\r/g, "\\r")
      .replace(/\n/g, "\\n")
      .trim() || "invalid JSON";
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return reason;
  const { line, column } = lineColumn(text, offset);
  return `line ${line}, column ${column}: ${reason}`;
}
