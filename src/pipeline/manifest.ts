import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../workspace/atomic.js";
import type { MemoryFile } from "../workspace/files.js";
import { stateDir, type Workspace } from "../workspace/workspace.js";

/**
 * The files a pipeline run read, by size and mtime (`.memory/<name>-files.json`), so the
 * next run also finds files changed in ways a "newer than the last run" test misses: a log
 * restored from a backup with its old mtime, a file copied in with `cp -p`, a deleted log.
 */
export type FileManifest = Map<string, { mtimeMs: number; size: number }>;

function manifestPath(ws: Workspace, name: string): string {
  return path.join(stateDir(ws), `${name}-files.json`);
}

/** The manifest the last completed run left, or undefined (first run, or unreadable: then the caller falls back). */
export async function readFileManifest(ws: Workspace, name: string): Promise<FileManifest | undefined> {
  try {
    const raw = JSON.parse(await readFile(manifestPath(ws, name), "utf8")) as {
      files?: Record<string, [number, number]>;
    };
    if (!raw.files || typeof raw.files !== "object") return undefined;
    const out: FileManifest = new Map();
    for (const [p, v] of Object.entries(raw.files)) {
      if (Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "number") {
        out.set(p, { mtimeMs: v[0], size: v[1] });
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Save what this run read; unchanged content is not rewritten (a quiet night touches nothing). */
export async function writeFileManifest(ws: Workspace, name: string, files: readonly MemoryFile[]): Promise<void> {
  const entries = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const body = `${JSON.stringify({ version: 1, files: Object.fromEntries(entries.map((f) => [f.path, [f.mtimeMs, f.size]])) })}\n`;
  const file = manifestPath(ws, name);
  const old = await readFile(file, "utf8").catch(() => undefined);
  if (old !== body) await writeFileAtomic(file, body);
}

/** Files that are new, or whose size or mtime differ from the manifest, and the manifest's files that are gone. */
export function changedAgainst(
  manifest: FileManifest,
  files: readonly MemoryFile[],
): { changed: string[]; gone: string[] } {
  const present = new Set<string>();
  const changed: string[] = [];
  for (const f of files) {
    present.add(f.path);
    const seen = manifest.get(f.path);
    if (!seen || seen.mtimeMs !== f.mtimeMs || seen.size !== f.size) changed.push(f.path);
  }
  const gone = [...manifest.keys()].filter((p) => !present.has(p));
  return { changed, gone };
}
