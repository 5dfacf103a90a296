import type { Clock } from "../workspace/clock.js";
import {
  type DigestEntry,
  type DigestNotes,
  entryBytes,
  entryFromMessage,
  type LeftOut,
  mergeEntries,
  parseDigestFull,
  renderDigest,
} from "./digest.js";
import { DIGEST_DAY_MAX_BYTES } from "./limits.js";
import type { SessionMessage } from "./types.js";

const lineKey = (source: string, line: number) => `${source}\u0000${line}`;

/**
 * One day's digest while messages stream in: what is already in the file, what this run
 * adds, and what is left out once the day is over DIGEST_DAY_MAX_BYTES. The rule is
 * "first come, first kept": messages are offered in file-key then line order, and once one
 * does not fit, every later message of the day is left out too (counted per session in a
 * note in the digest). A digest with a note is full, so a rerun that re-reads the same lines
 * keeps the same messages and counts nothing twice.
 */
export class DayDigest {
  private readonly existing: DigestEntry[];
  private readonly existingKeys = new Set<string>();
  private readonly added: DigestEntry[] = [];
  /** Messages kept or already in the digest: what fact extraction reads. */
  readonly messages: SessionMessage[] = [];
  private readonly leftOut = new Map<string, LeftOut>();
  /** Lines a person added to the digest: kept where they were. */
  private readonly notes: DigestNotes;
  /** What this run left out, per session (for the report). */
  readonly newlyLeftOut = new Map<string, LeftOut>();
  private used = 0;
  private full: boolean;

  /**
   * `old` is the digest's current text; `frozen`: the digest is too big to read
   * (DIGEST_READ_MAX_BYTES), so it stays as it is and every new message is left out.
   */
  constructor(
    readonly day: string,
    private readonly clock: Clock,
    private readonly old: string | undefined,
    readonly frozen = false,
  ) {
    const parsed = old === undefined ? { entries: [], leftOut: [], notes: new Map() } : parseDigestFull(old);
    this.existing = parsed.entries;
    this.notes = parsed.notes;
    for (const e of parsed.entries) {
      this.existingKeys.add(lineKey(e.source, e.line));
      this.used += entryBytes(e);
    }
    for (const l of parsed.leftOut) this.leftOut.set(l.source, l);
    this.full = frozen || parsed.leftOut.length > 0 || this.used >= DIGEST_DAY_MAX_BYTES;
  }

  /**
   * Offer a message of this day. `prepare` redacts and caps its text; it runs only for a
   * message whose text is needed (kept, or already in the digest and given to fact
   * extraction), so messages left out of a full day are never scanned.
   */
  offer(
    m: SessionMessage,
    prepare: (m: SessionMessage) => SessionMessage,
  ): "kept" | "duplicate" | "left-out" | "counted" {
    if (this.existingKeys.has(lineKey(m.source, m.line))) {
      this.messages.push(prepare(m));
      return "duplicate";
    }
    const prev = this.leftOut.get(m.source);
    if (prev && m.line >= prev.firstLine && m.line <= prev.lastLine) return "counted";
    if (!this.full) {
      const ready = prepare(m);
      const e = entryFromMessage(ready, this.clock);
      const size = entryBytes(e);
      if (this.used + size <= DIGEST_DAY_MAX_BYTES) {
        this.used += size;
        this.added.push(e);
        this.messages.push(ready);
        return "kept";
      }
      this.full = true;
    }
    // Left out: counted by the size of its text in the transcript.
    const size = Buffer.byteLength(m.text, "utf8");
    this.count(this.leftOut, m, size);
    this.count(this.newlyLeftOut, m, size);
    return "left-out";
  }

  private count(into: Map<string, LeftOut>, m: SessionMessage, size: number): void {
    const l = into.get(m.source);
    if (l) {
      l.messages++;
      l.bytes += size;
      l.firstLine = Math.min(l.firstLine, m.line);
      l.lastLine = Math.max(l.lastLine, m.line);
      return;
    }
    const fresh: LeftOut = {
      source: m.source,
      sessionId: m.sessionId,
      messages: 1,
      bytes: size,
      firstLine: m.line,
      lastLine: m.line,
    };
    if (m.agent !== undefined) fresh.agent = m.agent;
    into.set(m.source, fresh);
  }

  /** The digest's new text, or undefined when it would not change. */
  render(): string | undefined {
    if (this.frozen) return undefined;
    const next = renderDigest(
      this.day,
      mergeEntries(this.existing, this.added),
      this.clock.zone,
      [...this.leftOut.values()],
      this.notes,
    );
    return next === this.old ? undefined : next;
  }
}
