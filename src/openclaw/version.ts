import path from "node:path";
import { pathToFileURL } from "node:url";
import type { OpenClawRunner } from "./run.js";
import { runOpenClaw } from "./run.js";

/** "OpenClaw 2026.9.6 (eb377ac)" -> "2026.9.6"; undefined when it prints no version. */
export function parseOpenClawVersion(out: string): string | undefined {
  return /(\d{4}\.\d+\.\d+(?:-[\w.]+)?)/.exec(out)?.[1];
}

export async function openClawVersion(runner: OpenClawRunner): Promise<string | undefined> {
  const res = await runOpenClaw(runner, ["--version"], 60_000);
  return res.code === 0 ? parseOpenClawVersion(res.stdout) : undefined;
}

/**
 * Why this OpenClaw version is not supported, or undefined. The supported range has one
 * home, the plugin's lib.js (the plugin checks its host with the same function at load).
 */
export async function unsupportedVersion(pluginDir: string, version: string | undefined): Promise<string | undefined> {
  const lib = (await import(pathToFileURL(path.join(pluginDir, "lib.js")).href)) as {
    unsupportedHostMessage: (v: string | undefined) => string | undefined;
  };
  return lib.unsupportedHostMessage(version);
}
