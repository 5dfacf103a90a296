import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import type { Workspace } from "./workspace.js";

export interface MemoryFile {
  /** Workspace-relative, `/` separators. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

/** Workspace-relative path with `/` separators, whatever the platform. */
export function toPosixRelative(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

/** True when `child` is `parent` or inside it (both absolute, real paths). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Is this workspace-relative path one of the memory files (`MEMORY.md`, `memory/**.md`, `bank/**.md`)? */
export function isMemoryPath(rel: string): boolean {
  if (rel === "MEMORY.md" || rel === "memory.md") return true;
  if (!rel.toLowerCase().endsWith(".md")) return false;
  return rel.startsWith("memory/") || rel.startsWith("bank/");
}

/** `scanMemoryFiles` for callers that await (the same files, in the same order). */
export async function listMemoryFiles(ws: Workspace): Promise<MemoryFile[]> {
  return scanMemoryFiles(ws);
}

/**
 * Every memory file of the workspace, sorted by path. Symlinks are followed only when
 * their target stays inside the workspace (and each real file is listed once), so a
 * link can never pull outside files into the index. Synchronous, using the dirent types
 * readdir already returns and one stat per file: it is the freshness check every search
 * runs, and 3-4x faster than an awaited lstat-per-entry walk (~60 vs ~250 ms on 10 years).
 */
export function scanMemoryFiles(ws: Workspace): MemoryFile[] {
  const root = realpathSync(ws.root);
  const out = new Map<string, MemoryFile>();
  const seenReal = new Set<string>();

  function statOf(abs: string, dirent: Dirent | undefined): { info: Stats; real: string } | undefined {
    try {
      if (dirent && !dirent.isSymbolicLink()) return { info: statSync(abs), real: abs };
      const real = realpathSync(abs);
      if (!isInside(root, real)) return undefined;
      return { info: statSync(real), real };
    } catch {
      return undefined; // vanished or dangling link
    }
  }

  // `rel` is built alongside `abs` (path.relative per file is a measurable part of a 10-year scan).
  function consider(abs: string, rel: string, dirent?: Dirent): void {
    if (dirent && !dirent.isSymbolicLink() && !dirent.isDirectory() && !dirent.isFile()) return;
    if (dirent?.isFile() && !dirent.name.toLowerCase().endsWith(".md")) return;
    const s = statOf(abs, dirent);
    if (!s) return;
    if (seenReal.has(s.real)) return;
    if (s.info.isDirectory()) {
      seenReal.add(s.real);
      let entries: Dirent[];
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        if (e.name.startsWith(".")) continue;
        consider(`${abs}${path.sep}${e.name}`, `${rel}/${e.name}`, e);
      }
      return;
    }
    if (!s.info.isFile() || !path.basename(abs).toLowerCase().endsWith(".md")) return;
    seenReal.add(s.real);
    out.set(rel, { path: rel, absPath: abs, size: s.info.size, mtimeMs: s.info.mtimeMs });
  }

  for (const top of ["MEMORY.md", "memory.md", "memory", "bank"]) consider(path.join(root, top), top);
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Daily logs: `memory/**​/YYYY-MM-DD.md` and `memory/**​/YYYY-MM-DD-<slug>.md`. */
export function isDailyLog(rel: string): boolean {
  return rel.startsWith("memory/") && /^\d{4}-\d{2}-\d{2}(?:-[^/]+)?\.md$/i.test(path.posix.basename(rel));
}
