import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { MembankError } from "../workspace/errors.js";

export interface OpenClawRunner {
  /** The command (an executable path or name). */
  bin: string;
  env: NodeJS.ProcessEnv;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `openclaw` on PATH (or `$OPENCLAW_BIN`), as an absolute path; undefined when there is none. */
export function findOpenClawBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.OPENCLAW_BIN?.trim();
  if (configured) return path.resolve(configured);
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, "openclaw");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Run OpenClaw's CLI; never throws for a non-zero exit (callers decide), only when it cannot start. */
export function runOpenClaw(runner: OpenClawRunner, args: readonly string[], timeoutMs = 180_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      runner.bin,
      [...args],
      { env: runner.env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: unknown }) | null;
        if (err && typeof err.code === "string") {
          reject(
            new MembankError(`cannot run ${runner.bin} (${err.code}): install OpenClaw or pass --openclaw <path>`, {
              code: "ENOOPENCLAW",
            }),
          );
          return;
        }
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * The last meaningful line of a failed command's output, for a one-line message: OpenClaw's
 * reason is on stderr (its stdout carries notices), so stderr's lines come first.
 */
export function lastLine(res: RunResult): string {
  const clean = (text: string) =>
    text
      .split("\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strip ANSI colours from OpenClaw's log lines
      .map((l) => l.replace(/\u001b\[[0-9;]*m/g, "").trim())
      .filter(Boolean);
  const reason = /error|fail|requires|cannot|refus|invalid|would|not /i;
  const err = clean(res.stderr);
  const out = clean(res.stdout);
  return (
    err.findLast((l) => reason.test(l)) ??
    err.at(-1) ??
    out.findLast((l) => reason.test(l)) ??
    out.at(-1) ??
    `exit ${res.code}`
  );
}

/** Run and require exit 0, else a MembankError naming the command and OpenClaw's reason. */
export async function mustRunOpenClaw(runner: OpenClawRunner, args: readonly string[]): Promise<RunResult> {
  const res = await runOpenClaw(runner, args);
  if (res.code !== 0) {
    throw new MembankError(`openclaw ${args.slice(0, 2).join(" ")} failed (exit ${res.code}): ${lastLine(res)}`, {
      code: "EOPENCLAW",
    });
  }
  return res;
}
