/** membank's public library API. The CLI and the MCP server are thin layers over these. */

export type { Embedder, EmbedderChoice } from "./embed/types.js";
export type { Judge, Judgement, LlmServices, Stance } from "./llm/types.js";
export * from "./retain/types.js";
export * from "./workspace/index.js";
