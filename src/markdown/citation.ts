/**
 * Citations, the one format (issue 12): a line of a file is `path#Lline`. Bank pages
 * write a fact's citation as a link label, `[memory/2026-03-09.md#L19](../memory/2026-03-09.md#L19)`,
 * and read back which facts a page already cites from those labels.
 */

/** `memory/2026-03-09.md#L19`. */
export function citeLine(source: { path: string; line: number }): string {
  return `${source.path}#L${source.line}`;
}

const LABEL = /\[([^\]\s]+#L\d+)\]/g;

/** The citations a bank page's text links as labels (`[path#Lline]`), in order. */
export function citedLabels(text: string): string[] {
  return [...text.matchAll(LABEL)].map((m) => m[1]!);
}

/** The log line a page line cites: `([memory/2026-03-20.md#L7](../../memory/2026-03-20.md#L7))`. */
export function citedSource(text: string): { path: string; line: number } | undefined {
  const m = /\[((?:memory\/|MEMORY\.md|memory\.md)[^\]#]*)#L(\d+)\]/.exec(text);
  return m ? { path: m[1]!, line: Number(m[2]) } : undefined;
}
