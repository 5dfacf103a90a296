/**
 * What reading the daily logs found wrong with them, as reflect's checks (checkout.ts) weigh it
 * against the facts an earlier run read there: logs that could not be read as themselves, and
 * logs with lines whose words are not read now.
 */
import { EMPTY_LOG_REASON, type LogInput } from "../retain/index.js";

/**
 * A log read with lines whose words are not read (see LogInput.badLines): the facts there are
 * skipped. `from`: every line from `line` on (a log cut short: see LogInput.endsMidLine).
 */
export interface GarbledLog {
  path: string;
  /** The first bad line (said with `reason`), and all of them. */
  line: number;
  lines: readonly number[];
  reason: string;
  from?: true;
}

/**
 * Is `line` of the log certainly one whose words are not read now? Of a log cut short, the lines
 * past its end (its last line may still be whole: only the record of what was read there says).
 */
export function isGarbledLine(g: GarbledLog, line: number): boolean {
  return g.from ? line > g.line : g.lines.includes(line);
}

export function garbledNow(logs: readonly LogInput[]): GarbledLog[] {
  return logs.flatMap((l) => {
    const out: GarbledLog[] = [];
    const first = l.badLines?.[0];
    if (first !== undefined) {
      const said = l.problems?.find((p) => p.line === first);
      out.push({ path: l.path, line: first, lines: l.badLines!, reason: said?.reason ?? "not valid text" });
    }
    if (l.endsMidLine !== undefined) {
      const line = l.endsMidLine;
      out.push({
        path: l.path,
        line,
        lines: [line],
        from: true,
        reason:
          "ends mid-line, shorter than an earlier run read it (a copy or sync not finished?): " +
          "when the file is whole, run again; if you cut it yourself, end its last line (Enter at its end) and run again",
      });
    }
    return out;
  });
}

/** A log on disk that could not be read as itself; `lost`: provably not the log (zeroed, an LFS pointer). */
export interface LostLog {
  path: string;
  reason: string;
  lost: boolean;
}

export function lostNow(logs: readonly LogInput[]): LostLog[] {
  return logs
    .filter((l) => l.unread)
    .map((l) => ({
      path: l.path,
      reason: l.problems?.[0]?.reason ?? (l.empty ? EMPTY_LOG_REASON : "cannot be read"),
      lost: l.lost === true,
    }));
}
