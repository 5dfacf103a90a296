export { type Clock, createClock } from "./clock.js";
export {
  capMessage,
  type DigestEntry,
  digestPath,
  type LeftOut,
  mergeEntries,
  parseDigest,
  parseDigestFull,
  renderDigest,
} from "./digest.js";
export { findSessionFiles, isExcluded, isHeartbeatMessage, resolveSessionsDir, type SessionFile } from "./discover.js";
export { bestSourceLine, citation } from "./extract.js";
export { type IngestOptions, ingestSessions, sessionsClock } from "./ingest.js";
export {
  DIGEST_DAY_MAX_BYTES,
  DIGEST_READ_MAX_BYTES,
  LINE_MAX_BYTES,
  MESSAGE_MAX_BYTES,
  REDACT_LOOKAHEAD_CHARS,
} from "./limits.js";
export {
  contentText,
  normalizeText,
  parseSessionChunk,
  parseSessionLine,
  parseTimestamp,
  SessionChunkParser,
} from "./parse.js";
export { type Redacted, redactSecrets, secretAcrossSeam, stripZeroWidth } from "./redact.js";
export { SECRET_RULES, type SecretRule } from "./secret-rules.js";
export { loadSessionsState, type SessionsState, sessionsStatePath } from "./state.js";
export type { IngestReport, SessionDiagnostic, SessionMessage } from "./types.js";
