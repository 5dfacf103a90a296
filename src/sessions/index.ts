export { type Clock, createClock, sessionsClock, workspaceDay } from "../workspace/clock.js";
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
export {
  archiveSessionId,
  findSessionFiles,
  isExcluded,
  isHeartbeatMessage,
  resolveSessionsDir,
  type SessionFile,
  transcriptKey,
} from "./discover.js";
export { bestSourceLine, citation } from "./extract.js";
export { type IngestOptions, ingestSessions } from "./ingest.js";
export {
  DIGEST_DAY_MAX_BYTES,
  DIGEST_READ_MAX_BYTES,
  LINE_MAX_BYTES,
  MESSAGE_MAX_BYTES,
  REDACT_LOOKAHEAD_CHARS,
} from "./limits.js";
export {
  findOpenClawAgentsDir,
  findOpenClawSessions,
  type LocateOptions,
  type OpenClawSessions,
  openClawStateDir,
} from "./openclaw-locate.js";
export { OpenClawStore, STORE_FILE, type StoreBlob, type StoreEvent, type StoreSession } from "./openclaw-store.js";
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
export { loadSessionsState, type SessionsState, type StoreCursor, sessionsStatePath } from "./state.js";
export type { IngestReport, SessionDiagnostic, SessionMessage } from "./types.js";
export { unzstd, ZSTD_MAX_BYTES } from "./zstd.js";
