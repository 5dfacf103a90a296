import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { Document, Node } from "yaml";

// The yaml package (CommonJS, ~60 files) is required on first use, not imported: recall and
// search import this module through the index but parse front matter only when a bank page
// changed, and loading yaml cost more than the rest of a recall's module graph.
let yamlLib: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  yamlLib ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return yamlLib;
}

/**
 * YAML front matter of a bank page, through the `yaml` library (issue 12: one home for
 * the three hand parsers of entity pages, aliases and page content). The block is the
 * text between a first line `---` and the next line `---`. Reading is lenient the way
 * people write pages: a value the library can still read is used even when strict YAML
 * objects (`aliases: [@Jo]`, since `@` is reserved); a block that is no mapping reads as
 * no fields. Writing changes only the fields it is given: other fields, comments and
 * every byte of the body stay as they were.
 */

export interface FrontMatterBlock {
  /** The YAML between the fences (no fences), `\n` line ends. */
  yaml: string;
  /** Lines the block takes at the top of the page, fences included (the body starts on line `lines + 1`). */
  lines: number;
  /** Character offset where the body starts. */
  bodyOffset: number;
  /** Line end of the opening fence, reused when the block is written again. */
  eol: "\n" | "\r\n";
}

const FENCE = /^---[ \t]*$/;
/** The front matter membank writes on an entity page (no aliases yet). */
const MEMBANK_FRONT = /^aliases:[ \t]*\[\][ \t]*\n$/;

/** The front matter block at the very top of a page, or undefined. */
export function frontMatterBlock(text: string): FrontMatterBlock | undefined {
  // A byte order mark first (a page saved by Notepad or as "UTF-8 with BOM") is no text of the page.
  const first = /^(\uFEFF?---[ \t]*)(\r?\n)/.exec(text);
  if (!first) return undefined;
  let pos = first[0].length;
  let line = 1;
  const inner: string[] = [];
  while (pos <= text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl + 1;
    const l = text.slice(pos, end).replace(/\r?\n$/, "");
    line++;
    if (FENCE.test(l)) {
      return {
        yaml: inner.map((x) => `${x}\n`).join(""),
        lines: line,
        bodyOffset: end,
        eol: first[2] as "\n" | "\r\n",
      };
    }
    inner.push(l);
    if (nl < 0) break;
    pos = end;
  }
  return undefined;
}

/** Lines of front matter at the top of a page (fences included), 0 when there is none. */
export function frontMatterLineCount(text: string): number {
  return frontMatterBlock(text)?.lines ?? 0;
}

export interface FrontMatter {
  /** The fields, as plain values (empty when the page has none). */
  data: Record<string, unknown>;
  /** The page after the front matter, byte for byte (all of it when there is none). */
  body: string;
  /** Lines the block takes (0 when none). */
  lines: number;
}

function docOf(text: string, lineCounter?: Yaml.LineCounter): Document.Parsed {
  return yaml().parseDocument(text, {
    prettyErrors: false,
    uniqueKeys: false,
    ...(lineCounter ? { lineCounter } : {}),
  });
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Read a page's front matter. Never throws. */
export function readFrontMatter(text: string): FrontMatter {
  const block = frontMatterBlock(text);
  if (!block) return { data: {}, body: text, lines: 0 };
  // What membank writes on every entity page, read without loading yaml (~10-25 ms for the
  // index step of a night that changed a few entity pages).
  if (MEMBANK_FRONT.test(block.yaml))
    return { data: { aliases: [] }, body: text.slice(block.bodyOffset), lines: block.lines };
  let data: Record<string, unknown> = {};
  try {
    data = asRecord(docOf(block.yaml).toJS());
  } catch {
    // unreadable YAML: the page has no fields we can use
  }
  return { data, body: text.slice(block.bodyOffset), lines: block.lines };
}

/**
 * Set fields of a page's front matter (a new block when it has none). Fields not given,
 * comments and the body are kept; `undefined` removes a field. A block that is not a
 * mapping (a list, a bare string) or not valid YAML is a person's text we cannot merge
 * into: it throws, and the caller names the file.
 */
export function writeFrontMatter(text: string, fields: Record<string, unknown>): string {
  const block = frontMatterBlock(text);
  const doc = block ? docOf(block.yaml) : new (yaml().Document)({});
  if (doc.errors.length > 0) throw new Error(`the front matter is not valid YAML (${doc.errors[0]!.message})`);
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!yaml().isMap(doc.contents)) throw new Error("the front matter is not a list of `key: value` fields");
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) doc.delete(key);
    else doc.set(key, value);
  }
  const eol = block?.eol ?? "\n";
  const yamlText = doc.toString({ lineWidth: 0 }).replace(/\n/g, eol);
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  return `${bom}---${eol}${yamlText}---${eol}${block ? text.slice(block.bodyOffset) : text.slice(bom.length)}`;
}

/** A name-like field's text (`name: Mara`, `title: 2024`), else undefined. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** The page's name from front matter: `name`, else `title` (keys in any case). */
export function frontMatterName(data: Record<string, unknown>): string | undefined {
  const lower = new Map(Object.entries(data).map(([k, v]) => [k.toLowerCase(), v]));
  return textOf(lower.get("name")) ?? textOf(lower.get("title"));
}

/**
 * The `aliases` of a page with the 1-based page line that declares each (for
 * diagnostics). A list (`[Jo, "J. B."]` or `- Jo` lines) or a comma-separated string
 * (`aliases: Jo, JB`); a leading `@` is dropped, empty entries skipped.
 */
export function frontMatterAliases(text: string): { alias: string; line: number }[] {
  const block = frontMatterBlock(text);
  if (!block) return [];
  // What membank writes on every entity page: no aliases, and no YAML parse for it (reflect reads every page).
  if (MEMBANK_FRONT.test(block.yaml)) return [];
  const { LineCounter, isScalar, isSeq } = yaml();
  const lc = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = docOf(block.yaml, lc);
  } catch {
    return [];
  }
  const pairs = doc.contents && "items" in doc.contents ? (doc.contents.items as unknown[]) : [];
  const out: { alias: string; line: number }[] = [];
  // Front-matter line n is page line n + 1 (the opening fence is line 1).
  const lineOf = (node: Node | null | undefined) => (node?.range ? lc.linePos(node.range[0]).line + 1 : 2);
  const add = (value: unknown, line: number) => {
    const parts = typeof value === "string" ? value.split(",") : [textOf(value) ?? ""];
    for (const p of parts) {
      const alias = p.trim().replace(/^@/, "").trim();
      if (alias) out.push({ alias, line });
    }
  };
  for (const pair of pairs as { key: unknown; value: unknown }[]) {
    const key = isScalar(pair.key) ? String(pair.key.value).toLowerCase() : undefined;
    if (key !== "aliases") continue;
    const value = pair.value as Node | null;
    if (isSeq(value)) {
      for (const item of value.items as Node[]) add(isScalar(item) ? item.value : undefined, lineOf(item));
    } else if (isScalar(value)) {
      add(value.value, lineOf(value));
    }
  }
  return out;
}
