/** The MCP server (stdio): memory_recall, memory_search, memory_get, memory_entity. */
export { createMcpServer, entityReport, type McpOptions, runMcpStdio } from "./server.js";
