/**
 * Progress as plain lines, for logs, pipes and cron (no terminal to redraw a bar on):
 * nothing for a pass that ends within `quietMs`, then a line with counts, elapsed time
 * and an estimate of the time left, every `everyMs`, and a closing line.
 */

export interface ProgressLineOptions {
  /** No line before a pass has run this long (short passes stay silent). Default 2 s. */
  quietMs?: number;
  /** At most one line per this interval. Default 5 s. */
  everyMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export interface ProgressLines {
  /** Report `done` of `total` items of `label` (a new label starts a new pass). */
  update(label: string, done: number, total: number): void;
  /** The pass is over: a closing line if any line of it was written. */
  finish(): void;
}

/** "42 s", "3m 05s", "1h 02m". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** One progress line: `embedding: 120/1000 (12%), 10 s elapsed, ~1m 13s left`. */
export function progressLine(label: string, done: number, total: number, elapsedMs: number): string {
  const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
  const head = `${label}: ${done}/${total} (${pct}%), ${formatDuration(elapsedMs)} elapsed`;
  if (done >= total) return `${label}: ${done}/${total} done in ${formatDuration(elapsedMs)}`;
  if (done === 0) return `${head}, estimating the time left`;
  return `${head}, ~${formatDuration((elapsedMs / done) * (total - done))} left`;
}

/** Passes at least this long (items) are announced before they start, with their size. */
export const ANNOUNCE_FROM = 100;

/** Said before a big embedding pass: what is about to take a while, and that it is a one-off. */
export function embedPassLine(total: number, provider: string): string {
  return `embedding ${total} chunks with ${provider} (vectors are cached: later runs embed only new text)`;
}

export function progressLines(write: (line: string) => void, opts: ProgressLineOptions = {}): ProgressLines {
  const now = opts.now ?? Date.now;
  const quietMs = opts.quietMs ?? 2000;
  const everyMs = opts.everyMs ?? 5000;
  let pass: { label: string; started: number; last?: number; done: number; total: number } | undefined;
  const close = () => {
    if (pass?.last !== undefined) {
      const elapsed = now() - pass.started;
      write(
        pass.done >= pass.total
          ? progressLine(pass.label, pass.done, pass.total, elapsed)
          : `${pass.label}: stopped at ${pass.done}/${pass.total} after ${formatDuration(elapsed)}`,
      );
    }
    pass = undefined;
  };
  return {
    update(label, done, total) {
      if (pass && pass.label !== label) close();
      pass ??= { label, started: now(), done, total };
      pass.done = done;
      pass.total = total;
      const t = now();
      if (done >= total) {
        close();
        return;
      }
      if (t - pass.started < quietMs) return;
      if (pass.last !== undefined && t - pass.last < everyMs) return;
      pass.last = t;
      write(progressLine(label, done, total, t - pass.started));
    },
    finish: close,
  };
}
