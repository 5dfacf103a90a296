/**
 * When the nightly runs unless told otherwise: 04:00, an hour after OpenClaw 2026.9's
 * memory-core dreaming (its default `0 3 * * *`), so what dreaming promotes into MEMORY.md
 * reaches the bank the same night and the two never read and write the workspace at once.
 */
export const NIGHTLY_CRON = "0 4 * * *";
