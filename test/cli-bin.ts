/**
 * The CLI as users run it: package.json's `bin.membank` (the esbuild bundle that `pnpm build`
 * writes). End-to-end tests run this file, so they test the shipped entry point and not only
 * the tsc build; TSC_CLI is the tsc build's entry, for tests that compare the two.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: { membank: string } };
export const MEMBANK_BIN = path.join(REPO_ROOT, pkg.bin.membank);
export const TSC_CLI = path.join(REPO_ROOT, "dist/src/cli/main.js");
