/**
 * A line scanner for ATX headings that skips fenced code. It lets callers find the few
 * sections they care about in a large file without running the full Markdown parser
 * over all of it (remark runs at roughly 1 MB/s; a 5 MB log must still be fast).
 * Setext headings are not reported: section-level consumers parse their slice with
 * remark, which sees them.
 */
export interface ScannedHeading {
  /** 1-based line. */
  line: number;
  depth: number;
  /** Heading text without the `#` markers, whitespace collapsed, trimmed. */
  text: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;

/** True when the line opens or closes a code fence; tracks state across calls. */
export class FenceTracker {
  private open: { char: string; length: number } | undefined;

  /** Feed one line; returns true when the line is part of a fenced block (including its fences). */
  feed(line: string): boolean {
    const m = FENCE.exec(line);
    if (this.open) {
      if (m && m[1]![0] === this.open.char && m[1]!.length >= this.open.length && m[2]!.trim() === "") {
        this.open = undefined;
      }
      return true;
    }
    if (m) {
      const char = m[1]![0]!;
      // A backtick fence's info string may not contain a backtick (else it is inline code).
      if (char === "`" && m[2]!.includes("`")) return false;
      this.open = { char, length: m[1]!.length };
      return true;
    }
    return false;
  }
}

/** An HTML comment block (CommonMark HTML block 2): from a line starting `<!--` to the line with `-->`. */
const COMMENT_OPEN = /^ {0,3}<!--/;

/** ATX headings of the given lines (1-based line numbers), outside fenced code and HTML comments. */
export function scanHeadings(lines: readonly string[]): ScannedHeading[] {
  const out: ScannedHeading[] = [];
  const fence = new FenceTracker();
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // A commented-out "## Retain" is no section: what is inside a comment is not content.
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }
    if (fence.feed(line)) continue;
    if (COMMENT_OPEN.test(line)) {
      inComment = !line.slice(line.indexOf("<!--") + 4).includes("-->");
      continue;
    }
    if (!line.includes("#")) continue;
    const m = ATX.exec(line);
    if (!m) continue;
    // A closing sequence of #s is not part of the text.
    const raw = (m[2] ?? "").replace(/(?:^|[ \t]+)#+$/, "");
    out.push({ line: i + 1, depth: m[1]!.length, text: raw.replace(/\s+/g, " ").trim() });
  }
  return out;
}
