import type { NightlyState } from "../../pipelines/nightly.js";
import type { RunRecord } from "../pipeline/types.js";
import { leftNote } from "../reflect/git.js";
import { changeLine } from "../reflect/message.js";

/** The human summary of a nightly run, printed by `membank run nightly` and `membank schedule`, kept in its run record. */
export function summarizeNightly(s: NightlyState, record: RunRecord): string[] {
  const lines: string[] = [];
  const ing = s.ingest;
  if (ing) {
    if (ing.skipped) lines.push(`sessions: none (${ing.skipped})`);
    else {
      const days = ing.days.length ? ` for ${ing.days.join(", ")}` : "";
      const extra = [
        ing.deferred ? `${ing.deferred} of today wait for tomorrow` : "",
        ing.redactions ? `${ing.redactions} secrets redacted` : "",
        ing.factsExtracted ? `${ing.factsExtracted} facts extracted` : "",
        ing.leftOut.length
          ? `${ing.leftOut.reduce((n, l) => n + l.messages, 0)} messages left out over the daily digest limit`
          : "",
        ing.diagnostics.length ? `${ing.diagnostics.length} bad lines skipped` : "",
      ].filter(Boolean);
      lines.push(
        `sessions: ${ing.messages} messages from ${ing.sessionsIngested} of ${ing.files} sessions ingested${days}${extra.length ? ` (${extra.join(", ")})` : ""}`,
      );
    }
  }
  if (s.facts) {
    lines.push(
      `facts: ${s.facts.facts} in ${s.facts.files} ${s.since ? `logs dated ${s.since} or later (changed since the last run)` : "logs"}${s.facts.diagnostics ? ` (${s.facts.diagnostics} lines did not parse)` : ""}`,
    );
    if (s.facts.noRetainNote) lines.push(`  ${s.facts.noRetainNote}`);
  }
  if (s.reflect) {
    lines.push(
      `pages: ${s.reflect.pagesWritten.length} written${s.reflect.conflicts.length ? `, ${s.reflect.conflicts.length} conflicts kept for you` : ""}`,
    );
    // Only what happened: a "confidence changes: 0" line above new opinions' moves reads as a contradiction.
    if (s.reflect.opinionsChanged.length > 0) lines.push(`confidence changes: ${s.reflect.opinionsChanged.length}`);
    for (const c of s.reflect.opinionsChanged.slice(0, 20)) lines.push(`  ${changeLine(c)}`);
    if (s.reflect.opinionsCreated.length > 0)
      lines.push(`new opinions: ${s.reflect.opinionsCreated.length} (first stated -> after this run's evidence)`);
    for (const o of s.reflect.opinionsCreated.slice(0, 20))
      lines.push(`  ${changeLine({ ...o, from: o.initial, to: o.confidence })}`);
  }
  if (s.commit) {
    lines.push(
      s.commit.hash
        ? `commit: ${s.commit.hash.slice(0, 12)} (${s.commit.files} files)`
        : `commit: none (${s.commit.off ? `${s.commit.off}: files written, no commit` : s.commit.left.length ? "nothing membank alone changed" : "nothing changed"})`,
    );
    for (const l of s.commit.left.slice(0, 20)) lines.push(`  ${leftNote(l)}`);
  }
  if (s.index)
    lines.push(
      `index: ${s.index.changed} files updated, ${s.index.removed} removed, ${s.index.chunks} chunks${s.index.rebuilt ? ` (rebuilt: ${s.index.reason ?? ""})` : ""}`,
    );
  const status = {
    done: "done",
    nothing: "nothing to do",
    failed: "FAILED",
    aborted: "aborted",
    running: "running",
    interrupted: "interrupted",
    blocked: "BLOCKED (git is busy; nothing written)",
  }[record.status];
  lines.push(`run: ${status} in ${record.durationMs ?? 0} ms${record.error ? ` -- ${record.error.message}` : ""}`);
  return lines;
}
