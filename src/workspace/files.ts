import { lstat, readdir, realpath, stat } from "node:fs/promises";
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

/**
 * Every memory file of the workspace, sorted by path. Symlinks are followed only when
 * their target stays inside the workspace (and each real file is listed once), so a
 * link can never pull outside files into the index.
 */
export async function listMemoryFiles(ws: Workspace): Promise<MemoryFile[]> {
  const root = await realpath(ws.root);
  const out = new Map<string, MemoryFile>();
  const seenReal = new Set<string>();

  async function consider(abs: string): Promise<void> {
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(abs);
    } catch {
      return;
    }
    let real = abs;
    if (info.isSymbolicLink()) {
      try {
        real = await realpath(abs);
      } catch {
        return; // dangling link
      }
      if (!isInside(root, real)) return;
      try {
        info = await stat(real);
      } catch {
        return;
      }
    }
    if (seenReal.has(real)) return;
    if (info.isDirectory()) {
      seenReal.add(real);
      const entries = await readdir(abs);
      entries.sort();
      for (const name of entries) {
        if (name.startsWith(".")) continue;
        await consider(path.join(abs, name));
      }
      return;
    }
    if (!info.isFile() || !name(abs).toLowerCase().endsWith(".md")) return;
    seenReal.add(real);
    const rel = toPosixRelative(root, abs);
    out.set(rel, { path: rel, absPath: abs, size: info.size, mtimeMs: info.mtimeMs });
  }

  for (const top of ["MEMORY.md", "memory.md"]) await consider(path.join(root, top));
  await consider(path.join(root, "memory"));
  await consider(path.join(root, "bank"));
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function name(p: string): string {
  return path.basename(p);
}

/** Daily logs: `memory/**​/YYYY-MM-DD.md` and `memory/**​/YYYY-MM-DD-<slug>.md`. */
export function isDailyLog(rel: string): boolean {
  return rel.startsWith("memory/") && /^\d{4}-\d{2}-\d{2}(?:-[^/]+)?\.md$/i.test(path.posix.basename(rel));
}
