export { type Clock, createClock } from "./clock.js";
export { type DigestEntry, digestPath, mergeEntries, parseDigest, renderDigest } from "./digest.js";
export { findSessionFiles, isExcluded, isHeartbeatMessage, resolveSessionsDir, type SessionFile } from "./discover.js";
export { bestSourceLine, citation } from "./extract.js";
export { type IngestOptions, ingestSessions, sessionsClock } from "./ingest.js";
export { contentText, normalizeText, parseSessionChunk, parseSessionLine, parseTimestamp } from "./parse.js";
export { type Redacted, redactSecrets } from "./redact.js";
export { loadSessionsState, type SessionsState, sessionsStatePath } from "./state.js";
export type { IngestReport, SessionDiagnostic, SessionMessage } from "./types.js";
