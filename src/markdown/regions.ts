import { MembankError } from "../workspace/errors.js";
import { FenceTracker } from "./scan.js";

/**
 * Managed regions: generated text between `<!-- membank:begin NAME -->` and
 * `<!-- membank:end NAME -->` marker lines. Everything is string-level so the bytes
 * outside a region (including line endings and a BOM) are never touched.
 */
export interface Region {
  name: string;
  /** Exact text between the marker lines (each line with its line ending). */
  body: string;
  /** Line of the begin marker (1-based). */
  startLine: number;
  /** Line of the end marker. */
  endLine: number;
}

interface LocatedRegion extends Region {
  /** Offset where the body starts (just after the begin marker's line ending). */
  bodyStart: number;
  /** Offset of the end marker line's first character. */
  bodyEnd: number;
  /** The file's line ending as used by the begin marker. */
  eol: string;
}

const MARKER = /^[ \t]*<!--[ \t]*membank:(begin|end)[ \t]+([A-Za-z0-9_.:-]+)[ \t]*-->[ \t]*$/;
const NAME = /^[A-Za-z0-9_.:-]+$/;

function where(path: string | undefined, line: number): string {
  return path === undefined ? `line ${line}` : `${path}:${line}`;
}

function locate(text: string, path: string | undefined): LocatedRegion[] {
  const out: LocatedRegion[] = [];
  const seen = new Set<string>();
  const fence = new FenceTracker();
  let open: { name: string; line: number; bodyStart: number; eol: string } | undefined;
  let offset = 0;
  let lineNo = 0;
  const re = /\r\n|\r|\n/g;
  while (offset <= text.length) {
    lineNo++;
    re.lastIndex = offset;
    const m = re.exec(text);
    const lineEnd = m ? m.index : text.length;
    const next = m ? m.index + m[0].length : text.length + 1;
    const line = text.slice(offset, lineEnd).replace(/^\uFEFF/, "");
    // Markers shown inside code fences are documentation, not regions.
    const fenced = fence.feed(line);
    const marker = fenced ? null : MARKER.exec(line);
    if (marker) {
      const [, kind, name] = marker as unknown as [string, string, string];
      if (kind === "begin") {
        if (open) {
          throw new MembankError(
            `${where(path, lineNo)}: region "${name}" begins inside region "${open.name}" (begun at line ${open.line}); regions cannot nest`,
          );
        }
        if (seen.has(name)) throw new MembankError(`${where(path, lineNo)}: region "${name}" appears twice`);
        open = { name, line: lineNo, bodyStart: Math.min(next, text.length), eol: m ? m[0] : "\n" };
      } else {
        if (!open)
          throw new MembankError(`${where(path, lineNo)}: end marker of region "${name}" without a begin marker`);
        if (open.name !== name) {
          throw new MembankError(
            `${where(path, lineNo)}: end marker of region "${name}" but region "${open.name}" (begun at line ${open.line}) is open`,
          );
        }
        seen.add(name);
        out.push({
          name,
          body: text.slice(open.bodyStart, offset),
          startLine: open.line,
          endLine: lineNo,
          bodyStart: open.bodyStart,
          bodyEnd: offset,
          eol: open.eol,
        });
        open = undefined;
      }
    }
    offset = next;
  }
  if (open) {
    throw new MembankError(
      `${where(path, open.line)}: region "${open.name}" has no end marker (<!-- membank:end ${open.name} -->)`,
    );
  }
  return out;
}

/** The managed regions of a document, in order. Throws MembankError on unbalanced markers. */
export function readRegions(text: string, path?: string): Region[] {
  return locate(text, path).map(({ name, body, startLine, endLine }) => ({ name, body, startLine, endLine }));
}

/** The begin/end marker lines of a region, for writing new documents. */
export function regionMarkers(name: string): { begin: string; end: string } {
  if (!NAME.test(name)) throw new MembankError(`invalid region name ${JSON.stringify(name)}`);
  return { begin: `<!-- membank:begin ${name} -->`, end: `<!-- membank:end ${name} -->` };
}

/**
 * Replace the body of region `name`. The body's line endings are converted to the
 * file's (as used on the begin marker) and a final line ending is added when missing,
 * so the end marker stays on its own line. Bytes outside the region are unchanged.
 */
export function replaceRegion(text: string, name: string, body: string, path?: string): string {
  const region = locate(text, path).find((r) => r.name === name);
  if (!region) {
    throw new MembankError(`${path ?? "document"}: no managed region "${name}" (<!-- membank:begin ${name} -->)`);
  }
  let normalised = body.replace(/\r\n|\r|\n/g, region.eol);
  if (normalised !== "" && !normalised.endsWith(region.eol)) normalised += region.eol;
  return text.slice(0, region.bodyStart) + normalised + text.slice(region.bodyEnd);
}
