// membank's OpenClaw plugin. It sits next to memory-core (which keeps the memory slot, memory_search,
// memory_get, flush and dreaming) the way the bundled memory-wiki does: two tools and a prompt supplement.
// The tools spawn membank's CLI with the node that built membank: OpenClaw runs on Node 24, and
// membank's better-sqlite3 is a native module built for the Node that ran `pnpm install` (often 20),
// so loading membank's library in OpenClaw's process would fail with NODE_MODULE_VERSION.
import { readFileSync } from "node:fs";
import { definePluginEntry } from "openclaw/plugin-sdk/plugin-entry";
import {
  entityArgv,
  formatResults,
  promptLines,
  recallArgv,
  resolveConfig,
  runMembank,
  unsupportedHostMessage,
} from "./lib.js";

const RETAIN_GUIDANCE = readFileSync(new URL("./retain-guidance.md", import.meta.url), "utf8");
const DATE = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "a date, YYYY-MM-DD" };

const RecallParams = {
  type: "object",
  additionalProperties: false,
  required: ["query"],
  properties: {
    query: { type: "string", minLength: 1, description: "the question, in plain words" },
    k: { type: "integer", minimum: 1, maximum: 50, description: "most results (default 8)" },
    since: { ...DATE, description: "only results dated on or after this day, YYYY-MM-DD" },
    until: { ...DATE, description: "only results dated on or before this day, YYYY-MM-DD" },
    entity: { type: "string", description: "only results about this entity (@Name or Name)" },
  },
};

const EntityParams = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, description: "entity name, slug or alias, with or without @" },
    limit: { type: "integer", minimum: 1, maximum: 200, description: "most results (default 20)" },
  },
};

function toolResult(res) {
  return { content: [{ type: "text", text: formatResults(res) }], details: { results: res.results ?? [] } };
}

export default definePluginEntry({
  id: "membank",
  name: "membank",
  description: "Cited recall and entity pages from membank's bank next to memory-core, and the Retain prompt.",
  register(api) {
    const unsupported = unsupportedHostMessage(api.runtime?.version);
    if (unsupported) {
      api.logger.warn(unsupported);
      return;
    }
    api.registerTool(
      (ctx) => {
        const cfg = resolveConfig(api.pluginConfig, ctx);
        return {
          name: "memory_recall",
          label: "membank recall",
          description:
            "Answer from membank's reviewed memory: facts, opinions (with confidence) and bank pages about people, " +
            "projects, preferences and dates, each cited as path#Lline. Use for 'what does X prefer', " +
            "'what happened around <date>', 'since last week'.",
          parameters: RecallParams,
          execute: async (_toolCallId, params, signal) =>
            toolResult(await runMembank(cfg, recallArgv(cfg, params), signal)),
        };
      },
      { name: "memory_recall" },
    );
    api.registerTool(
      (ctx) => {
        const cfg = resolveConfig(api.pluginConfig, ctx);
        return {
          name: "memory_entity",
          label: "membank entity",
          description:
            "Everything membank knows about one person, project or place: its bank page and facts, newest first, cited.",
          parameters: EntityParams,
          execute: async (_toolCallId, params, signal) =>
            toolResult(await runMembank(cfg, entityArgv(cfg, params), signal)),
        };
      },
      { name: "memory_entity" },
    );
    api.registerMemoryPromptSupplement(({ availableTools }) => promptLines(availableTools, RETAIN_GUIDANCE));
  },
});
