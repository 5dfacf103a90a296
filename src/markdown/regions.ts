import { createHash } from "node:crypto";
import { MembankError } from "../workspace/errors.js";
import { FenceTracker } from "./scan.js";

/**
 * Managed regions (DESIGN.md 1.2): generated text between marker lines
 *
 *   <!-- membank:begin facts -->
 *   ...generated...
 *   <!-- membank:end facts sha=0123456789ab -->
 *
 * The optional `sha=` on the end marker is a hash of the body membank last wrote. A body
 * that no longer matches its hash was edited by a person: membank keeps it and reports a
 * conflict. The hash lives in the file (not in .memory/) so it survives a deleted
 * .memory/ and travels with the file through git. A region without `sha=` (a fresh
 * template, or one a person handed back by deleting the hash) is membank's to write.
 * Everything is string-level so the bytes outside a region (including line endings and a
 * BOM) are never touched. Hashes and comparisons ignore line endings (a Windows checkout
 * with core.autocrlf turns every LF into CRLF, which is not a hand edit), and a region is
 * written back with the line ending its begin marker uses.
 */
export interface Region {
  name: string;
  /** Exact text between the marker lines (each line with its line ending). */
  body: string;
  /** Line of the begin marker (1-based). */
  startLine: number;
  /** Line of the end marker. */
  endLine: number;
  /** The hash recorded on the end marker, when there is one. */
  sha?: string;
}

interface LocatedRegion extends Region {
  /** Offset of the begin marker's `<!--` (text before it on its line is not the region's). */
  start: number;
  /** Offset where the body starts (just after the begin marker's line ending). */
  bodyStart: number;
  /** Offset of the end marker line's first character. */
  bodyEnd: number;
  /** Offset just after the end marker's `-->` (its line ending is not the region's). */
  end: number;
  /** The file's line ending as used by the begin marker. */
  eol: string;
}

const MARKER = /^[ \t]*<!--[ \t]*membank:(begin|end)[ \t]+([A-Za-z0-9_.:-]+)(?:[ \t]+sha=([0-9a-f]+))?[ \t]*-->[ \t]*$/;

/** Does the text hold a membank region (a page membank wrote)? */
export function hasManagedRegion(text: string): boolean {
  return text.split(/\r?\n/).some((line) => MARKER.exec(line)?.[1] === "begin");
}

/** Unbalanced markers: a user error naming the file (when known) and the line. */
export class RegionError extends MembankError {
  constructor(
    problem: string,
    readonly line: number,
    readonly path?: string,
  ) {
    super(
      `${path === undefined ? `line ${line}` : `${path}:${line}`}: ${problem}; fix the membank markers and run again`,
      {
        code: "EREGION",
      },
    );
    this.name = "RegionError";
  }
}

function locate(text: string, path: string | undefined): LocatedRegion[] {
  const out: LocatedRegion[] = [];
  const seen = new Set<string>();
  let fence = new FenceTracker();
  let open: { name: string; line: number; start: number; bodyStart: number; eol: string } | undefined;
  let offset = 0;
  let lineNo = 0;
  const re = /\r\n|\r|\n/g;
  while (offset <= text.length) {
    lineNo++;
    re.lastIndex = offset;
    const m = re.exec(text);
    const lineEnd = m ? m.index : text.length;
    const next = m ? m.index + m[0].length : text.length + 1;
    const raw = text.slice(offset, lineEnd);
    const line = raw.replace(/^\uFEFF/, "");
    // Markers shown inside code fences are documentation, not regions. Inside an open
    // region the body is generated text: only its end marker counts there, so a fence a
    // body leaves open (an LLM summary, say) cannot hide the end marker.
    const fenced = open ? false : fence.feed(line);
    const marker = fenced ? null : MARKER.exec(line);
    if (marker) {
      const [, kind, name, sha] = marker as unknown as [string, string, string, string | undefined];
      if (kind === "begin") {
        if (open) {
          throw new RegionError(
            `region "${name}" begins inside region "${open.name}" (begun at line ${open.line}), which is not closed; regions cannot nest`,
            lineNo,
            path,
          );
        }
        if (seen.has(name)) throw new RegionError(`region "${name}" appears twice`, lineNo, path);
        const start = offset + raw.indexOf("<!--");
        open = { name, line: lineNo, start, bodyStart: Math.min(next, text.length), eol: m ? m[0] : "\n" };
      } else {
        if (!open) throw new RegionError(`end marker of region "${name}" without a begin marker`, lineNo, path);
        if (open.name !== name) {
          throw new RegionError(
            `end marker of region "${name}" but region "${open.name}" (begun at line ${open.line}) is open`,
            lineNo,
            path,
          );
        }
        seen.add(name);
        const region: LocatedRegion = {
          name,
          body: text.slice(open.bodyStart, offset),
          startLine: open.line,
          endLine: lineNo,
          start: open.start,
          bodyStart: open.bodyStart,
          bodyEnd: offset,
          end: offset + raw.lastIndexOf("-->") + 3,
          eol: open.eol,
        };
        if (sha !== undefined) region.sha = sha;
        out.push(region);
        open = undefined;
        fence = new FenceTracker();
      }
    }
    offset = next;
  }
  if (open) {
    throw new RegionError(
      `region "${open.name}" has no end marker (<!-- membank:end ${open.name} -->)`,
      open.line,
      path,
    );
  }
  return out;
}

/** Regions with their offsets: `start`..`end` is the region's text from `<!--` of the begin marker to `-->` of the end marker. */
export interface RegionSpan extends Region {
  start: number;
  end: number;
}

/** The managed regions of a document with their offsets, in order. Throws RegionError on unbalanced markers. */
export function regionSpans(text: string, path?: string): RegionSpan[] {
  return locate(text, path).map(({ bodyStart: _b, bodyEnd: _e, eol: _l, ...rest }) => rest);
}

/** The managed regions of a document, in order. Throws RegionError on unbalanced markers. */
export function readRegions(text: string, path?: string): Region[] {
  return locate(text, path).map(({ name, body, startLine, endLine, sha }) =>
    sha === undefined ? { name, body, startLine, endLine } : { name, body, startLine, endLine, sha },
  );
}

/** `text` with every line ending (CRLF, lone CR) as LF. */
export function toLf(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The line ending a document uses: that of its first line (LF for a one-line or empty text). */
export function lineEnding(text: string): string {
  const m = /\r\n|\r|\n/.exec(text);
  return m ? m[0] : "\n";
}

/**
 * Hash of a region body as written by membank (12 hex chars of SHA-256), over the body
 * with LF line endings: the same body with CRLF (a Windows checkout) has the same hash.
 */
export function bodyHash(body: string): string {
  return createHash("sha256").update(toLf(body)).digest("hex").slice(0, 12);
}

/**
 * A body as a formatter leaves it, undone: no blank lines at its start or end (markdownlint's
 * and prettier's blank line between the marker comment and a list) and no spaces at line ends
 * (trim-trailing-whitespace on save, pre-commit's hook). membank's own bodies have neither.
 */
function withoutLayout(body: string): string {
  const lines = toLf(body)
    .split("\n")
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/**
 * The body membank wrote (LF endings), read through a formatter's layout (withoutLayout), or
 * undefined when a person changed it or it has no hash: what a memo may reuse as it is.
 */
export function writtenBody(region: Pick<Region, "body" | "sha">): string | undefined {
  if (region.sha === undefined) return undefined;
  if (bodyHash(region.body) === region.sha) return toLf(region.body);
  const bare = withoutLayout(region.body);
  return bodyHash(bare) === region.sha ? bare : undefined;
}

/** Blank lines a formatter put at the start and end of a body (0 and 0 for membank's own). */
function padding(body: string): { lead: number; trail: number } {
  const lines = toLf(body).split("\n");
  if (lines.at(-1) === "") lines.pop();
  const blank = (l: string) => l.trim() === "";
  const lead = lines.findIndex((l) => !blank(l));
  if (lead === -1) return { lead: 0, trail: 0 };
  return { lead, trail: lines.length - 1 - lines.findLastIndex((l) => !blank(l)) };
}

/**
 * True when a region's body no longer matches the hash membank recorded (a person edited it).
 * A change of layout only (see withoutLayout) is not an edit: it would keep the region from
 * every update, night after night, for no word of the person's.
 */
export function isEdited(region: Pick<Region, "body" | "sha">): boolean {
  return region.sha !== undefined && writtenBody(region) === undefined;
}

/** A body ends with a line break (unless empty) so the end marker stays on its own line. */
function withFinalBreak(body: string): string {
  return body === "" || body.endsWith("\n") ? body : `${body}\n`;
}

/**
 * Text of a complete region with its hash (markers included, no trailing line break),
 * every line ending `eol`.
 */
export function renderRegion(name: string, body: string, eol = "\n", pad = { lead: 0, trail: 0 }): string {
  const normalized = withFinalBreak(toLf(body));
  const laid = normalized === "" ? "" : `${"\n".repeat(pad.lead)}${normalized}${"\n".repeat(pad.trail)}`;
  const text = `<!-- membank:begin ${name} -->\n${laid}<!-- membank:end ${name} sha=${bodyHash(normalized)} -->`;
  return eol === "\n" ? text : text.replace(/\n/g, eol);
}

export interface RegionUpdate {
  text: string;
  /** Regions whose human-edited body was kept instead of membank's new body. */
  conflicts: string[];
  /** Regions whose body (or hash) was written. */
  written: string[];
}

/**
 * Put new bodies into a page, recording each body's hash. Text outside the markers is
 * never touched. A region whose body differs from its recorded hash keeps the human text
 * (a conflict) unless the human text already equals the new body. Regions missing from
 * the page are inserted following `order` (before the next existing region that comes
 * later in `order`, else after the last region, else at the end of the page). Regions in
 * `force` are written even when edited (used for opinions whose hand edit was read back
 * as state). `path` names the page in marker errors. Regions in `drop` (and not in
 * `bodies`) are removed with the blank line before them, unless a person edited them (a
 * conflict: kept).
 */
export function applyRegions(
  text: string,
  bodies: ReadonlyMap<string, string>,
  order: readonly string[] = [...bodies.keys()],
  force: ReadonlySet<string> = new Set(),
  path?: string,
  drop: Pick<ReadonlySet<string>, "has"> = new Set(),
): RegionUpdate {
  const regions = locate(text, path);
  // New regions and their blank-line separators take the page's own line ending.
  const eol = lineEnding(text);
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
    if (before) for (const name of before) out += `${renderRegion(name, bodies.get(name)!, eol)}${eol}${eol}`;
    const body = bodies.get(region.name);
    if (body === undefined && drop.has(region.name) && !isEdited(region)) {
      // The separator goes with it: the blank line before, else the one after (a first region).
      const blankBefore = /(?:\r\n|\r|\n){2}$/.exec(out);
      const blankAfter = /^(?:\r\n|\r|\n){2}/.exec(text.slice(region.end));
      if (blankBefore) out = out.slice(0, blankBefore.index);
      else if (blankAfter) {
        pos = region.end + blankAfter[0].length;
        written.push(region.name);
        continue;
      }
      written.push(region.name);
    } else if (body === undefined) {
      if (drop.has(region.name)) conflicts.push(region.name);
      out += text.slice(region.start, region.end);
    } else {
      const normalized = withFinalBreak(toLf(body));
      // The cheap test first: most regions are rewritten with the body they hold (no hash needed).
      if (toLf(region.body) !== normalized && isEdited(region) && !force.has(region.name)) {
        conflicts.push(region.name);
        out += text.slice(region.start, region.end);
      } else {
        // The region keeps its own line ending (a page with mixed endings stays as it is elsewhere).
        // And the blank lines a formatter put around its body (the hash is of membank's body).
        const fresh = renderRegion(region.name, normalized, region.eol, padding(region.body));
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
      for (const name of tail) out += `${eol}${eol}${renderRegion(name, bodies.get(name)!, eol)}`;
      out += text.slice(pos);
    } else {
      out += text.slice(pos);
      let sep = "";
      if (out.length > 0) sep = out.endsWith(`${eol}${eol}`) ? "" : out.endsWith(eol) ? eol : `${eol}${eol}`;
      out += sep + tail.map((name) => renderRegion(name, bodies.get(name)!, eol)).join(`${eol}${eol}`);
      out += eol;
    }
  } else {
    out += text.slice(pos);
  }
  return { text: out, conflicts, written };
}
