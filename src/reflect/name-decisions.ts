/**
 * The prose names' decisions a run renders the pages with: which prose spellings count for
 * which page (entity-context.ts, prose-names.ts). More logs can change them: a third
 * "Denise" on her own makes "Denise Park" one of her lines, a MEMORY.md nickname tie makes
 * "Rachel" Rach's once neither has a page of facts. Then lines of OLD logs move between
 * pages, which an incremental run's window does not see. The snapshot keeps the last run's
 * decisions (a short hash per page), so the next run re-renders the pages whose decision
 * changed, as a full run renders them. Pure.
 */
import { createHash } from "node:crypto";
import { cmp } from "./format.js";

/**
 * Entity key -> hash of its spellings, as a stable string (same decisions, same bytes). Every
 * entity has a row (an empty hash: no prose names it), so one that came or went shows too:
 * old facts name it in plain text (related), MEMORY.md lines next to others (scope.ts).
 */
export function nameDecisions(spellings: ReadonlyMap<string, readonly string[]>, known: Iterable<string>): string {
  const rows = new Map<string, string>();
  for (const key of known) rows.set(key, "");
  for (const [key, list] of spellings)
    rows.set(key, createHash("sha256").update(list.join("\n")).digest("hex").slice(0, 12));
  return JSON.stringify([...rows].sort((a, b) => cmp(a[0], b[0])));
}

function parse(text: string): Map<string, string> | undefined {
  try {
    const rows = JSON.parse(text) as unknown;
    if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.length === 2)) return undefined;
    return new Map(rows as [string, string][]);
  } catch {
    return undefined;
  }
}

/**
 * Entity keys whose lines a change of decisions moved (a page gained, lost or changed its
 * spellings). Undefined when the earlier decisions are unknown: any page may have moved.
 */
export function movedKeys(before: string | undefined, now: string): Set<string> | undefined {
  if (before === now) return new Set();
  const [a, b] = [before === undefined ? undefined : parse(before), parse(now)];
  if (a === undefined || b === undefined) return undefined;
  const out = new Set<string>();
  for (const [key, hash] of a) if (b.get(key) !== hash) out.add(key);
  for (const key of b.keys()) if (!a.has(key)) out.add(key);
  return out;
}
