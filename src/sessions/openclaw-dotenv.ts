import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/**
 * OpenClaw's global `.env` files, as OpenClaw 2026.9 loads them before it reads its config
 * (src/infra/dotenv-global-core.ts): `<state dir>/.env`, then, for the default state dir
 * only, `~/.config/openclaw/gateway.env`. The first file to set a key wins, and a variable
 * already in the environment wins over both. Without them a `${VAR}` that a user keeps only
 * in `~/.openclaw/.env` stays unexpanded, and an agent's workspace is not where OpenClaw has it.
 */
export function withOpenClawDotEnv(
  env: NodeJS.ProcessEnv,
  where: { stateDir: string; home: string },
): NodeJS.ProcessEnv {
  const files = [path.join(where.stateDir, ".env")];
  if (path.resolve(where.stateDir) === path.resolve(where.home, ".openclaw") || !env.OPENCLAW_STATE_DIR?.trim())
    files.push(path.join(where.home, ".config", "openclaw", "gateway.env"));
  let out: NodeJS.ProcessEnv | undefined;
  for (const file of files) {
    for (const [key, value] of Object.entries(readDotEnv(file))) {
      if ((out ?? env)[key] !== undefined) continue;
      out ??= { ...env };
      out[key] = value;
    }
  }
  return out ?? env;
}

/** OpenClaw's cap on a dotenv file: a larger one is skipped. */
const MAX_DOTENV_BYTES = 1024 * 1024;

/** A dotenv file's entries; a missing, unreadable or oversized file has none (OpenClaw skips it too). */
function readDotEnv(file: string): Record<string, string> {
  try {
    const real = realpathSync(file);
    const info = statSync(real);
    if (!info.isFile() || info.size > MAX_DOTENV_BYTES) return {};
    return parseDotEnv(readFileSync(real, "utf8"));
  } catch {
    return {};
  }
}

// The `dotenv` package's line rule (which OpenClaw uses): KEY=value or KEY: value, `export`
// allowed, quoted values ('', "", ``) may span lines, `#` starts a comment outside quotes.
const LINE =
  /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

/** Parse dotenv text as the `dotenv` package does; keys OpenClaw would not take (not [A-Za-z_][A-Za-z0-9_]*) are left out. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/g, "\n");
  for (const m of lines.matchAll(LINE)) {
    const key = m[1]!;
    let value = (m[2] ?? "").trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, "$2");
    if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out[key] = value;
  }
  return out;
}
