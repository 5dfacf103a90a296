import { createHash } from "node:crypto";
import type { ChatRequest } from "./prompts.js";

/** The cache key: provider, model and every byte the model sees. */
export function cacheKey(provider: string, model: string, request: ChatRequest): string {
  const material = JSON.stringify([provider, model, request.task, request.system, request.user, request.jsonSchema]);
  return createHash("sha256").update(material).digest("hex");
}
