import { MembankError } from "../workspace/errors.js";
import type { OpenClawContext } from "./context.js";
import { type RunResult, runOpenClaw } from "./run.js";

interface ValidateReport {
  valid?: unknown;
  path?: unknown;
  issues?: { path?: unknown; message?: unknown }[];
}

/**
 * Why OpenClaw refuses its own config (`openclaw config validate --json`: valid false and
 * its issues), or undefined when it accepts it or the answer is not that report. OpenClaw
 * would refuse each of setup's changes on such a config, after earlier steps were done.
 */
export function invalidConfigMessage(res: RunResult, configFile: string): string | undefined {
  if (res.code === 0) return undefined;
  const at = res.stdout.search(/^\{/m);
  if (at < 0) return undefined;
  let report: ValidateReport;
  try {
    report = JSON.parse(res.stdout.slice(at)) as ValidateReport;
  } catch {
    return undefined;
  }
  if (report.valid !== false) return undefined;
  const issues = (report.issues ?? []).map((i) => `${String(i.path ?? "")}: ${String(i.message ?? "")}`);
  const file = typeof report.path === "string" ? report.path : configFile;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return (
    `${file}: OpenClaw finds its config invalid: ${issues[0] ?? "see openclaw config validate"}${more}. ` +
    "Fix it (`openclaw doctor --fix`, or by hand), then run setup again; nothing was changed"
  );
}

/** Stop before any change when OpenClaw itself would refuse its config. */
export async function assertOpenClawConfigValid(ctx: OpenClawContext): Promise<void> {
  const res = await runOpenClaw(ctx.runner, ["config", "validate", "--json"], 120_000);
  const message = invalidConfigMessage(res, ctx.configFile);
  if (message) throw new MembankError(message, { code: "EOPENCLAWCONFIG" });
}
