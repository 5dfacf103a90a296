/**
 * The Retain paragraph in the workspace's AGENTS.md (OpenClaw reads it into every session's
 * prompt): one marked block that setup adds once and refreshes in place, never touching the
 * rest of the file.
 */
export const BLOCK_BEGIN = "<!-- membank:begin retain -->";
export const BLOCK_END = "<!-- membank:end retain -->";

function block(guidance: string): string {
  return `${BLOCK_BEGIN}\n${guidance.trim()}\n${BLOCK_END}`;
}

/** Where the block is: [start, end) offsets of the whole block, or undefined. */
function findBlock(text: string): [number, number] | undefined {
  const start = text.indexOf(BLOCK_BEGIN);
  if (start < 0) return undefined;
  const endMarker = text.indexOf(BLOCK_END, start + BLOCK_BEGIN.length);
  if (endMarker < 0) return undefined;
  return [start, endMarker + BLOCK_END.length];
}

export type BlockState = "missing" | "current" | "stale";

/** Whether AGENTS.md holds the block with today's guidance. */
export function retainBlockState(text: string, guidance: string): BlockState {
  const at = findBlock(text);
  if (!at) return "missing";
  return text.slice(at[0], at[1]) === block(guidance) ? "current" : "stale";
}

/**
 * AGENTS.md with the block added (at the end, after one blank line) or replaced in place.
 * Same input, same bytes; applying it twice changes nothing. A begin marker without an end
 * marker is left alone and a fresh block is appended, so a half-deleted block never eats text.
 */
export function upsertRetainBlock(text: string, guidance: string): string {
  const at = findBlock(text);
  if (at) return text.slice(0, at[0]) + block(guidance) + text.slice(at[1]);
  if (text.trim() === "") return `${block(guidance)}\n`;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const body = text.endsWith("\n") ? text : `${text}${eol}`;
  return `${body}${eol}${block(guidance)}${eol}`;
}
