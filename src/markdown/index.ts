export * from "./display.js";
export * from "./links.js";
export * from "./opinions.js";
export * from "./page-content.js";
export * from "./parse.js";
export * from "./regions.js";
export * from "./scan.js";
