import { readFileSync } from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { MembankError } from "../workspace/errors.js";

/**
 * OpenClaw's config as OpenClaw itself reads it (src/config/includes.ts and its env
 * substitution in 2026.9): JSON5, `$include` files merged in, `${VAR}` replaced in strings.
 * membank only reads it; every change goes through OpenClaw's CLI.
 */

/** A config OpenClaw would refuse too: the message names the file and line and what to do. */
export class OpenClawConfigError extends MembankError {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message, { code: "EOPENCLAWCONFIG" });
  }
}

const INCLUDE = "$include";
const MAX_DEPTH = 10;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** OpenClaw's deepMerge for includes: objects merge, arrays concatenate, otherwise the later value wins. */
function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (!isObject(a) || !isObject(b)) return b;
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
  return out;
}

/** json5's syntax error: `JSON5: invalid character 'p' at 5:3`, with the position as numbers. */
interface Json5SyntaxError extends SyntaxError {
  lineNumber: number;
  columnNumber: number;
}
const isJson5Error = (e: unknown): e is Json5SyntaxError =>
  e instanceof SyntaxError && typeof (e as Partial<Json5SyntaxError>).lineNumber === "number";

/**
 * One file's text as data, read with the json5 package OpenClaw itself reads its config with
 * (so what one accepts the other does); a syntax error becomes `file:line:column: reason`.
 */
export function parseConfigText(text: string, file: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (error) {
    if (!isJson5Error(error)) throw error;
    const reason = error.message.replace(/^JSON5: /, "").replace(/ at \d+:\d+$/, "");
    throw new OpenClawConfigError(
      `${file}:${error.lineNumber}:${error.columnNumber}: not valid JSON5 (${reason}); OpenClaw cannot read it either: ` +
        "fix that line (`openclaw config validate` shows the same), then run membank again",
      file,
    );
  }
}

function readConfigFile(file: string, from: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new OpenClawConfigError(`${from}: $include ${file} cannot be read (${code}); fix the path`, from);
  }
  return parseConfigText(text, file);
}

function resolveIncludes(value: unknown, file: string, chain: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveIncludes(v, file, chain));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (k !== INCLUDE) out[k] = resolveIncludes(v, file, chain);
  if (!(INCLUDE in value)) return out;
  const spec = value[INCLUDE];
  const targets = typeof spec === "string" ? [spec] : Array.isArray(spec) ? spec : undefined;
  if (!targets || targets.some((t) => typeof t !== "string")) {
    throw new OpenClawConfigError(`${file}: $include must be a file name or a list of file names`, file);
  }
  if (chain.length > MAX_DEPTH) {
    throw new OpenClawConfigError(`${file}: $include nested deeper than ${MAX_DEPTH} files`, file);
  }
  const loaded = (targets as string[]).map((t) => {
    const target = path.resolve(path.dirname(file), t);
    if (chain.includes(target)) {
      throw new OpenClawConfigError(`${file}: circular $include: ${[...chain, target].join(" -> ")}`, file);
    }
    return resolveIncludes(readConfigFile(target, file), target, [...chain, target]);
  });
  const included = typeof spec === "string" ? loaded[0] : loaded.reduce((acc, v) => merge(acc, v), {});
  if (Object.keys(out).length === 0) return included;
  if (!isObject(included)) {
    throw new OpenClawConfigError(`${file}: keys beside $include need the included file to hold an object`, file);
  }
  // Sibling keys override what the include brought in.
  return merge(included, out);
}

/** `${VAR}` in strings from the environment (names [A-Z_][A-Z0-9_]*); unset stays as written; `$${VAR}` is literal. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === "string") {
    return value.replace(/\$(\$?)\{([A-Z_][A-Z0-9_]*)\}/g, (whole, escaped: string, name: string) => {
      if (escaped) return whole.slice(1);
      const v = env[name];
      return v === undefined || v === "" ? whole : v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => substituteEnv(v, env));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env)]));
  return value;
}

/**
 * OpenClaw's config file as data, includes merged and `${VAR}` substituted; undefined when the
 * file does not exist. Throws OpenClawConfigError (file:line) on a config OpenClaw cannot read.
 */
export function loadOpenClawConfig(file: string, env: NodeJS.ProcessEnv = process.env): Json | undefined {
  const written = loadOpenClawConfigAsWritten(file);
  return written === undefined ? undefined : (substituteEnv(written, env) as Json);
}

/**
 * The config with includes merged but every `${VAR}` as the user wrote it: what a value that is
 * written back through OpenClaw's CLI must start from, or the reference becomes its value.
 */
export function loadOpenClawConfigAsWritten(file: string): Json | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new OpenClawConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code})`, file);
  }
  const merged = resolveIncludes(parseConfigText(text, file), file, [path.resolve(file)]);
  if (!isObject(merged)) throw new OpenClawConfigError(`${file}: the config must be an object ({ ... })`, file);
  return merged;
}
