/** One piece of a file as indexed: 1-based inclusive line range and its text. */
export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

export interface ChunkOptions {
  /** Target chunk size in approximate tokens (default 400). */
  tokens?: number;
  /** Approximate tokens repeated from the end of one chunk at the start of the next (default 80). */
  overlap?: number;
}

/**
 * Approximate tokens as characters / 4: the usual rule of thumb for English with BPE
 * tokenizers, free to compute, and stable across providers (chunking must not depend on
 * which embedder is configured). It undercounts CJK text, which only makes chunks larger.
 */
export const CHARS_PER_TOKEN = 4;

const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

function isBlank(line: string): boolean {
  return line.trim() === "";
}

/**
 * Split Markdown into line-aligned chunks of about `tokens` tokens with `overlap` tokens
 * of overlap. Cuts fall on line boundaries; when a chunk is full and a heading appears
 * in its second half, the cut moves to just before that heading and the next chunk
 * starts at the heading without overlap (a section start needs no context from the
 * previous one). A single line longer than the budget becomes its own chunk. Leading
 * and trailing blank lines are trimmed; blank-only chunks are dropped. Pure.
 */
export function chunkMarkdown(text: string, opts: ChunkOptions = {}): Chunk[] {
  const maxChars = Math.max(1, (opts.tokens ?? 400) * CHARS_PER_TOKEN);
  const overlapChars = Math.max(0, Math.min((opts.overlap ?? 80) * CHARS_PER_TOKEN, maxChars / 2));
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const n = lines.length;
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < n) {
    let end = start; // exclusive
    let size = 0;
    let cutAtHeading = -1;
    while (end < n) {
      const len = lines[end]!.length + 1;
      if (end > start && size + len > maxChars) break;
      if (end > start && HEADING.test(lines[end]!) && size >= maxChars / 2) cutAtHeading = end;
      size += len;
      end++;
    }
    let next: number;
    if (end < n && cutAtHeading > start) {
      end = cutAtHeading;
      next = cutAtHeading;
    } else if (end < n) {
      // Step back over whole lines until about `overlapChars` are repeated.
      next = end;
      let back = 0;
      while (next - 1 > start && back + lines[next - 1]!.length + 1 <= overlapChars) {
        next--;
        back += lines[next]!.length + 1;
      }
    } else {
      next = n;
    }
    pushTrimmed(chunks, lines, start, end);
    start = next;
  }
  return chunks;
}

function pushTrimmed(out: Chunk[], lines: string[], start: number, end: number): void {
  let s = start;
  let e = end - 1;
  while (s <= e && isBlank(lines[s]!)) s++;
  while (e >= s && isBlank(lines[e]!)) e--;
  if (s > e) return;
  const last = out[out.length - 1];
  // Overlap can make a trimmed chunk fall inside the previous one; it adds nothing.
  if (last && last.startLine <= s + 1 && last.endLine >= e + 1) return;
  out.push({ startLine: s + 1, endLine: e + 1, text: lines.slice(s, e + 1).join("\n") });
}
