import { citedLabels, citeLine } from "../markdown/citation.js";
import type { Fact } from "../retain/types.js";
import type { Workspace } from "../workspace/workspace.js";
import { readWorkspaceFile } from "./load.js";
import { TYPED_PAGES } from "./pages.js";

export interface AddedInput {
  /** Every fact of the run, respelled. */
  facts: readonly Fact[];
  /** The incremental window's first day; undefined for a full run (or one that fell back to full). */
  since: string | undefined;
  /** The window's facts as the previous run had them (the snapshot). */
  windowBefore: readonly Fact[];
  /** The pages this run renders, with what they held before. */
  pages: readonly { path: string; before?: string | undefined }[];
  /** Other pages' texts as they were before this run (entity pages, bank/opinions.md). */
  oldTexts: readonly string[];
}

/**
 * The facts new in this run, for the commit message and the report. Incremental: facts of
 * the window the previous run did not have (by id, so a fact whose line moved is not new);
 * older ones come from the snapshot, so are not new. Full: facts no page linked before, the
 * typed pages included (a page not re-rendered has them too).
 */
export async function factsAdded(ws: Workspace, input: AddedInput): Promise<Fact[]> {
  const { facts, since } = input;
  if (since !== undefined) {
    const seenBefore = new Set(input.windowBefore.map((f) => f.id));
    return facts.filter((f) => f.date >= since && !seenBefore.has(f.id));
  }
  const renderedPaths = new Set(input.pages.map((p) => p.path));
  const typedTexts = await Promise.all(
    Object.values(TYPED_PAGES)
      .filter((rel) => !renderedPaths.has(rel))
      .map((rel) => readWorkspaceFile(ws, rel)),
  );
  const linked = new Set<string>();
  for (const text of [...input.oldTexts, ...input.pages.map((p) => p.before ?? ""), ...typedTexts.map((t) => t ?? "")])
    for (const c of citedLabels(text)) linked.add(c);
  return facts.filter((f) => !linked.has(citeLine(f.source)));
}
