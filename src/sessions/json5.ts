/**
 * A JSON5 reader (https://spec.json5.org) for OpenClaw's config, which people edit by hand:
 * comments, unquoted keys, single quotes, trailing commas, hex numbers, +/-Infinity and NaN,
 * escaped line breaks in strings. A syntax error says where (line and column, 1-based), so a
 * message can name `openclaw.json:5:3` the way OpenClaw's own JSON5 parser does.
 */

export class Json5Error extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at ${line}:${column}`);
    this.name = "Json5Error";
  }
}

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", 0: "\0" };
// JSON5's white space: ECMAScript's WhiteSpace and LineTerminator.
const SPACE = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const ID_START = /[\p{L}\p{Nl}$_]/u;
const ID_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]/u;

export function parseJson5(text: string): unknown {
  let i = 0;

  const fail = (reason: string, at = i): never => {
    const before = text.slice(0, at);
    const line = before.split(/\r\n|[\n\r\u2028\u2029]/).length;
    const column = at - Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r"));
    throw new Json5Error(reason, line, column);
  };
  const unexpected = (): never =>
    i >= text.length ? fail("unexpected end of input") : fail(`invalid character ${JSON.stringify(text[i])}`);

  function skip(): void {
    while (i < text.length) {
      const c = text[i]!;
      if (SPACE.test(c)) i++;
      else if (text.startsWith("//", i)) {
        while (i < text.length && !/[\n\r\u2028\u2029]/.test(text[i]!)) i++;
      } else if (text.startsWith("/*", i)) {
        const end = text.indexOf("*/", i + 2);
        if (end < 0) fail("unterminated comment");
        i = end + 2;
      } else break;
    }
  }

  function string(): string {
    const quote = text[i++]!;
    let out = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text[i]!;
      if (c === quote) {
        i++;
        return out;
      }
      if (c === "\n" || c === "\r") fail("line break in a string (escape it with \\)");
      if (c !== "\\") {
        out += c;
        i++;
        continue;
      }
      const e = text[++i];
      if (e === undefined) return fail("unterminated string");
      i++;
      if (e === "x" || e === "u") {
        const len = e === "x" ? 2 : 4;
        const hex = text.slice(i, i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail(`bad \\${e} escape`, i - 2);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += len;
      } else if (e === "\r") {
        if (text[i] === "\n") i++; // an escaped CRLF continues the line
      } else if (e === "\n" || e === "\u2028" || e === "\u2029") {
        // line continuation: nothing
      } else if (e === "0" && /[0-9]/.test(text[i] ?? "")) fail("octal escapes are not allowed", i - 2);
      else if (/[1-9]/.test(e)) fail("octal escapes are not allowed", i - 2);
      else out += ESCAPES[e] ?? e;
    }
  }

  function identifier(): string {
    let out = "";
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\\") {
        const hex = text.slice(i + 2, i + 6);
        if (text[i + 1] !== "u" || !/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad escape in a key");
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else if ((out === "" ? ID_START : ID_PART).test(c)) {
        out += c;
        i++;
      } else break;
    }
    if (out === "") unexpected();
    return out;
  }

  function number(): number {
    const m = /^[+-]?(?:Infinity|NaN|0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!m) return unexpected();
    const raw = m[0];
    // A leading zero followed by a digit is not JSON5 (no octal literals).
    if (/^[+-]?0\d/.test(raw)) fail("leading zeros are not allowed");
    i += raw.length;
    const sign = raw.startsWith("-") ? -1 : 1;
    const body = raw.replace(/^[+-]/, "");
    if (body === "Infinity") return sign * Number.POSITIVE_INFINITY;
    if (body === "NaN") return Number.NaN;
    return sign * (/^0[xX]/.test(body) ? Number.parseInt(body.slice(2), 16) : Number(body));
  }

  function value(): unknown {
    skip();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"' || c === "'") return string();
    for (const [word, v] of [
      ["null", null],
      ["true", true],
      ["false", false],
    ] as const) {
      if (text.startsWith(word, i) && !ID_PART.test(text[i + word.length] ?? "")) {
        i += word.length;
        return v;
      }
    }
    if (c !== undefined && /[-+.\dIN]/.test(c)) return number();
    return unexpected();
  }

  function object(): Record<string, unknown> {
    i++;
    // A null prototype: a key named __proto__ in a config is data, never the object's prototype.
    const out: Record<string, unknown> = Object.create(null);
    for (;;) {
      skip();
      if (text[i] === "}") {
        i++;
        return { ...out };
      }
      const key = text[i] === '"' || text[i] === "'" ? string() : identifier();
      skip();
      if (text[i] !== ":") unexpected();
      i++;
      out[key] = value();
      skip();
      if (text[i] === ",") i++;
      else if (text[i] !== "}") unexpected();
    }
  }

  function array(): unknown[] {
    i++;
    const out: unknown[] = [];
    for (;;) {
      skip();
      if (text[i] === "]") {
        i++;
        return out;
      }
      out.push(value());
      skip();
      if (text[i] === ",") i++;
      else if (text[i] !== "]") unexpected();
    }
  }

  const result = value();
  skip();
  if (i < text.length) unexpected();
  return result;
}
