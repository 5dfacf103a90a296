import { createHash } from "node:crypto";

/**
 * Managed regions with ownership hashes (DESIGN.md 1.2).
 *
 *   <!-- membank:begin facts -->
 *   ...generated...
 *   <!-- membank:end facts sha=0123456789ab -->
 *
 * The end marker carries a hash of the body membank last wrote. A body that no longer
 * matches its hash was edited by a person: membank keeps it and reports a conflict.
 * The hash lives in the file (not in .memory/) so it survives a deleted .memory/ and
 * travels with the file through git. A region without `sha=` (a fresh template, or one a
 * person handed back by deleting the hash) is membank's to write.
 */

export interface Region {
  name: string;
  /** Offset of the begin marker's first character. */
  start: number;
  /** Offset just after the begin marker's line break: the body starts here. */
  bodyStart: number;
  /** Offset of the end marker's first character: the body ends here. */
  bodyEnd: number;
  /** Offset just after the end marker (not its line break). */
  end: number;
  sha?: string;
  body: string;
}

const MARKER = /<!-- membank:(begin|end) ([A-Za-z0-9_.:-]+)(?: sha=([0-9a-f]+))? -->/g;

export class RegionError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Hash of a region body as written by membank (12 hex chars of SHA-256). */
export function bodyHash(body: string): string {
  return createHash("sha256").update(body).digest("hex").slice(0, 12);
}

/** Every managed region of a text, in order. Throws RegionError (with a line) on unbalanced markers. */
export function readRegions(text: string): Region[] {
  const out: Region[] = [];
  let open: { name: string; start: number; bodyStart: number } | undefined;
  for (const m of text.matchAll(MARKER)) {
    const [marker, which, name, sha] = m as unknown as [string, string, string, string | undefined];
    const at = m.index ?? 0;
    if (which === "begin") {
      if (open) throw new RegionError(`region "${open.name}" is not closed before "${name}" begins`, lineAt(text, at));
      let bodyStart = at + marker.length;
      if (text.startsWith("\r\n", bodyStart)) bodyStart += 2;
      else if (text[bodyStart] === "\n") bodyStart += 1;
      open = { name, start: at, bodyStart };
    } else {
      if (!open || open.name !== name) {
        throw new RegionError(`end marker of "${name}" without a matching begin`, lineAt(text, at));
      }
      const bodyEnd = Math.max(open.bodyStart, at);
      const region: Region = {
        name,
        start: open.start,
        bodyStart: open.bodyStart,
        bodyEnd,
        end: at + marker.length,
        body: text.slice(open.bodyStart, bodyEnd),
      };
      if (sha !== undefined) region.sha = sha;
      if (out.some((r) => r.name === name)) throw new RegionError(`region "${name}" appears twice`, lineAt(text, at));
      out.push(region);
      open = undefined;
    }
  }
  if (open) throw new RegionError(`region "${open.name}" is never closed`, lineAt(text, open.start));
  return out;
}

/** Text of a complete region (markers included, no trailing line break). */
export function renderRegion(name: string, body: string): string {
  const normalized = body === "" || body.endsWith("\n") ? body : `${body}\n`;
  return `<!-- membank:begin ${name} -->\n${normalized}<!-- membank:end ${name} sha=${bodyHash(normalized)} -->`;
}

export interface RegionUpdate {
  text: string;
  /** Regions whose human-edited body was kept instead of membank's new body. */
  conflicts: string[];
  /** Regions whose body (or hash) was written. */
  written: string[];
}

/**
 * Put new bodies into a page. Text outside the markers is never touched. A region whose
 * body differs from its recorded hash keeps the human text (a conflict) unless the human
 * text already equals the new body. Regions missing from the page are inserted following
 * `order` (before the next existing region that comes later in `order`, else after the
 * last region, else at the end of the page). Regions in `force` are written even when
 * edited (used for opinions whose hand edit was read back as state).
 */
export function applyRegions(
  text: string,
  bodies: ReadonlyMap<string, string>,
  order: readonly string[] = [...bodies.keys()],
  force: ReadonlySet<string> = new Set(),
): RegionUpdate {
  const regions = readRegions(text);
  const conflicts: string[] = [];
  const written: string[] = [];
  const present = new Set(regions.map((r) => r.name));
  const rank = new Map(order.map((name, i) => [name, i]));
  // Insertions keyed by the offset they go before; -1 = after the last region / end of page.
  const inserts = new Map<number, string[]>();
  for (const name of order) {
    if (present.has(name) || !bodies.has(name)) continue;
    const myRank = rank.get(name) ?? Number.MAX_SAFE_INTEGER;
    const next = regions.find((r) => (rank.get(r.name) ?? -1) > myRank);
    const key = next ? next.start : -1;
    const list = inserts.get(key) ?? [];
    list.push(name);
    inserts.set(key, list);
    written.push(name);
  }
  let out = "";
  let pos = 0;
  for (const region of regions) {
    const before = inserts.get(region.start);
    out += text.slice(pos, region.start);
    if (before) for (const name of before) out += `${renderRegion(name, bodies.get(name)!)}\n\n`;
    const body = bodies.get(region.name);
    if (body === undefined) {
      out += text.slice(region.start, region.end);
    } else {
      const normalized = body === "" || body.endsWith("\n") ? body : `${body}\n`;
      const edited = region.sha !== undefined && bodyHash(region.body) !== region.sha;
      if (edited && region.body !== normalized && !force.has(region.name)) {
        conflicts.push(region.name);
        out += text.slice(region.start, region.end);
      } else {
        const fresh = renderRegion(region.name, normalized);
        if (fresh !== text.slice(region.start, region.end)) written.push(region.name);
        out += fresh;
      }
    }
    pos = region.end;
  }
  const tail = inserts.get(-1);
  if (tail) {
    if (regions.length > 0) {
      // pos is the last region's end: new regions follow it, then the rest of the page.
      for (const name of tail) out += `\n\n${renderRegion(name, bodies.get(name)!)}`;
      out += text.slice(pos);
    } else {
      out += text.slice(pos);
      let sep = "";
      if (out.length > 0) sep = out.endsWith("\n\n") ? "" : out.endsWith("\n") ? "\n" : "\n\n";
      out += sep + tail.map((name) => renderRegion(name, bodies.get(name)!)).join("\n\n");
      out += "\n";
    }
  } else {
    out += text.slice(pos);
  }
  return { text: out, conflicts, written };
}
