export * from "./atomic.js";
export * from "./config.js";
export * from "./errors.js";
export * from "./files.js";
export * from "./init.js";
export * from "./lock.js";
export * from "./workspace.js";
