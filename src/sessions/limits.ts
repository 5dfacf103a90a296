/**
 * Size limits of session ingestion, in one place. A transcript can be hundreds of MB (tool
 * output, pasted logs); a digest is read by people and indexed for recall, so it keeps the
 * start of a day and says what it left out instead of growing without bound.
 */

/** Message text (rendered quotes) in one day's `memory/YYYY-MM-DD-sessions.md`. */
export const DIGEST_DAY_MAX_BYTES = 512 * 1024;

/**
 * A digest bigger than this was written before the daily limit existed (or by hand): it is
 * not read into memory nor rewritten; new messages of its day are counted as left out.
 */
export const DIGEST_READ_MAX_BYTES = 4 * DIGEST_DAY_MAX_BYTES;

/** One message in a digest; a longer message keeps its start and says how much was cut. */
export const MESSAGE_MAX_BYTES = 16 * 1024;

/**
 * One transcript line (one JSON record) held in memory while reading. A longer line (a huge
 * tool result or an inlined image) is skipped with a diagnostic instead of being buffered.
 */
export const LINE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Text after the per-message cut that redaction still sees (a secret straddling the cut is
 * then redacted whole); what lies beyond is never scanned, so a pasted multi-MB message
 * costs no more than a 24 KB one. An unterminated private key block is redacted to the end.
 */
export const REDACT_LOOKAHEAD_CHARS = 8 * 1024;

export const kb = (bytes: number): number => Math.ceil(bytes / 1024);
