import type { Heading, Root, RootContent } from "mdast";
import { toString as mdToString } from "mdast-util-to-string";
import { nodeEndLine, nodeLine } from "./parse.js";

export interface Section {
  heading: Heading;
  depth: number;
  /** Heading text (inline markup flattened, whitespace collapsed, trimmed). */
  text: string;
  /** Top-level nodes after the heading, up to the next heading of the same or a higher level. */
  nodes: RootContent[];
  /** Line of the heading. */
  startLine: number;
  /** Last line of the section's content (the heading's line when the section is empty). */
  endLine: number;
}

export type SectionMatch = string | RegExp | ((text: string, heading: Heading) => boolean);

/** Flattened, whitespace-collapsed text of a heading. */
export function headingText(heading: Heading): string {
  return mdToString(heading).replace(/\s+/g, " ").trim();
}

function matcher(match: SectionMatch): (text: string, heading: Heading) => boolean {
  if (typeof match === "function") return match;
  if (match instanceof RegExp) return (text) => match.test(text);
  const wanted = match.replace(/\s+/g, " ").trim().toLowerCase();
  return (text) => text.toLowerCase() === wanted;
}

/**
 * Sections of the top level of a document whose heading matches: a string matches the
 * heading text case-insensitively, a RegExp is tested against it, a function decides.
 * A section runs until the next heading of the same or a higher level (any text).
 */
export function findSections(tree: Root, match: SectionMatch): Section[] {
  const test = matcher(match);
  const out: Section[] = [];
  const children = tree.children;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.type !== "heading") continue;
    const text = headingText(node);
    if (!test(text, node)) continue;
    const nodes: RootContent[] = [];
    for (let j = i + 1; j < children.length; j++) {
      const next = children[j]!;
      if (next.type === "heading" && next.depth <= node.depth) break;
      nodes.push(next);
    }
    const startLine = nodeLine(node) ?? 0;
    const last = nodes[nodes.length - 1];
    const endLine = (last && nodeEndLine(last)) ?? nodeEndLine(node) ?? startLine;
    out.push({ heading: node, depth: node.depth, text, nodes, startLine, endLine });
  }
  return out;
}
