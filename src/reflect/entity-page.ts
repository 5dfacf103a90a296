import { citeLine } from "../markdown/citation.js";
import { byPlace } from "../markdown/order.js";
import { entityFileStem, entityKey } from "../retain/entities.js";
import type { Fact, SourceRef } from "../retain/types.js";
import { type FacetState, facetState } from "./facets.js";
import { cmp, newestFirst, relLink } from "./format.js";

/**
 * The body of an entity page, deterministic and without an LLM (issue 10 item 4): a
 * current-state block (what MEMORY.md says, the latest fact per facet with what it
 * superseded, what is upcoming), a capped timeline, prose mentions and related entities.
 * Pure: `today` (the run's date) is the only input besides the facts.
 */

/** Newest facts listed in an entity's timeline; older ones are summed up in one line (a 10-year page stays readable). */
export const TIMELINE_MAX = 50;
/** Newest prose mentions listed. */
export const MENTIONS_MAX = 12;
const CORE_MAX = 8;
const UPCOMING_MAX = 5;
const LATEST_MAX = 3;
const SUPERSEDED_SHOWN = 2;
const SNIPPET_MAX = 120;

/** A line of MEMORY.md (or a log) that names an entity. */
export interface LineMention {
  path: string;
  line: number;
  text: string;
  /** The log's date; absent for MEMORY.md. */
  date?: string;
}

export interface EntityContext {
  /** The run's date (YYYY-MM-DD): what is upcoming, ongoing or past. */
  today: string;
  /** MEMORY.md lines naming the entity, in file order. */
  core: readonly LineMention[];
  /** Prose lines of logs naming the entity, on days with no fact about it. */
  mentions: readonly LineMention[];
  /** Other names the entity may be (alias suggestions), never merged here. */
  maybeSame: readonly { name: string; why: string }[];
  /** Entity key -> spelling of every known entity, for plain-text mentions in facts. */
  known: ReadonlyMap<string, string>;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** A line as a short quote: one line, without its list marker, at most SNIPPET_MAX characters. */
function snippet(text: string): string {
  const chars = [...oneLine(text).replace(/^(?:[-*+>]|\d+[.)])\s+/, "")];
  return chars.length <= SNIPPET_MAX ? chars.join("") : `${chars.slice(0, SNIPPET_MAX - 1).join("")}…`;
}

const link = (page: string, src: SourceRef) => `[${citeLine(src)}](${relLink(page, src)})`;

/** upcoming / ongoing / past of a fact's validity range on `today`; undefined when it has none. */
export function timeStatus(f: Fact, today: string): "upcoming" | "ongoing" | "past" | undefined {
  const from = f.validFrom;
  const to = f.validTo;
  if (from === undefined && to === undefined) return undefined;
  if (from !== undefined && from > today) return "upcoming";
  if (to !== undefined && to < today) return "past";
  return "ongoing";
}

/** "2026-03-09 → 2026-04-09, upcoming"; undefined when the fact has no validity range. */
export function validityLabel(f: Fact, today: string): string | undefined {
  const from = f.validFrom;
  const to = f.validTo;
  let range: string;
  if (from !== undefined && to !== undefined) range = from === to ? `on ${from}` : `${from} → ${to}`;
  else if (from !== undefined) range = `from ${from}`;
  else if (to !== undefined) range = `until ${to}`;
  else return undefined;
  return `${range}, ${timeStatus(f, today)}`;
}

/** One fact of an entity page: its date, text, validity, the other subjects, what replaced it, its line. */
export function entityBullet(page: string, slug: string, f: Fact, today: string, supersededBy?: Fact): string {
  const notes: string[] = [];
  const valid = validityLabel(f, today);
  if (valid) notes.push(valid);
  const others = f.entities.filter((e) => e !== slug);
  if (others.length) notes.push(`with ${others.map((e) => `@${e}`).join(", ")}`);
  if (f.kind === "opinion" && f.confidence !== undefined) notes.push(`c=${f.confidence.toFixed(2)}`);
  if (supersededBy) notes.push(`superseded ${supersededBy.date}`);
  const note = notes.length ? ` _(${notes.join("; ")})_` : "";
  return `- ${f.date} — ${oneLine(f.content)}${note} (${link(page, f.source)})`;
}

/** The current-state block at the top of an entity page. */
export function entityState(
  page: string,
  slug: string,
  facts: readonly Fact[],
  ctx: EntityContext,
  facets: FacetState = facetState(facts, [slug]),
): string {
  const out: string[] = [];
  if (ctx.core.length) {
    out.push("From MEMORY.md:", "");
    for (const c of ctx.core.slice(0, CORE_MAX)) out.push(`- ${snippet(c.text)} (${link(page, c)})`);
    out.push("");
  }
  const { facet, supersededBy } = facets;
  const sorted = [...facts].sort(newestFirst);
  // The latest fact of each facet, newest facet first; what it replaced underneath.
  const heads = sorted.filter((f) => facet.has(f.id) && !supersededBy.has(f.id));
  if (heads.length) {
    out.push("Current state:", "");
    // What each fact replaced, newest first: one pass (ten years: thousands of facts, dozens of heads).
    const replaced = new Map<string, Fact[]>();
    for (const o of sorted) {
      const by = supersededBy.get(o.id)?.id;
      if (by === undefined) continue;
      const list = replaced.get(by);
      if (list) list.push(o);
      else replaced.set(by, [o]);
    }
    for (const f of heads) {
      out.push(`${entityBullet(page, slug, f, ctx.today).replace(/^- /, `- ${facet.get(f.id)}: `)}`);
      const older = (replaced.get(f.id) ?? []).slice(0, SUPERSEDED_SHOWN);
      for (const o of older) out.push(`  - superseded: ${o.date} — ${oneLine(o.content)} (${link(page, o.source)})`);
    }
    out.push("");
  }
  const upcoming = facts
    .filter((f) => timeStatus(f, ctx.today) === "upcoming" && !supersededBy.has(f.id))
    .sort((a, b) => cmp(a.validFrom ?? "", b.validFrom ?? "") || newestFirst(a, b))
    .slice(0, UPCOMING_MAX);
  if (upcoming.length) {
    out.push("Upcoming:", "");
    for (const f of upcoming) out.push(entityBullet(page, slug, f, ctx.today));
    out.push("");
  }
  const latest = sorted.filter((f) => f.kind !== "opinion" && !facet.has(f.id)).slice(0, LATEST_MAX);
  if (latest.length) {
    out.push("Latest:", "");
    for (const f of latest) out.push(entityBullet(page, slug, f, ctx.today));
    out.push("");
  }
  const maybe = maybeSameBlock(ctx.maybeSame);
  if (maybe) out.push(maybe, "");
  return out.join("\n");
}

/** The alias suggestions that end the current-state block ("" when there are none; no final line break). */
export function maybeSameBlock(maybeSame: EntityContext["maybeSame"]): string {
  if (maybeSame.length === 0) return "";
  const out = ["Maybe the same as (not merged):", ""];
  for (const m of maybeSame) {
    out.push(
      `- @${m.name} — ${m.why}; if so, add \`aliases: [${m.name}]\` to the front matter of this page (or of @${m.name}'s)`,
    );
  }
  return out.join("\n");
}

/** Prose mentions, newest first (the order they are listed in). */
export function newestMentions(mentions: readonly LineMention[]): LineMention[] {
  // Two mentions on one line are told apart by their text. Each mention's place is built once,
  // not twice per comparison (a 10-year entity has thousands of mentions).
  return mentions
    .map((m) => ({ m, place: { path: m.path, line: m.line, id: m.text } }))
    .sort((a, b) => cmp(b.m.date ?? "", a.m.date ?? "") || byPlace(a.place, b.place))
    .map((x) => x.m);
}

/** The timeline: every kind of fact, newest first, capped; then prose mentions. */
export function entityTimeline(
  page: string,
  slug: string,
  facts: readonly Fact[],
  ctx: EntityContext,
  facets: FacetState = facetState(facts, [slug]),
): string {
  return `${factTimeline(page, slug, facts, ctx.today, facets)}${mentionsBlock(page, ctx.mentions)}\n`;
}

/** The timeline's fact list, without the prose mentions that follow it (and without a final line break). */
export function factTimeline(
  page: string,
  slug: string,
  facts: readonly Fact[],
  today: string,
  facets: FacetState = facetState(facts, [slug]),
): string {
  const { supersededBy } = facets;
  const sorted = [...facts].sort(newestFirst);
  const parts: string[] = [];
  if (sorted.length === 0) parts.push("No facts yet.");
  for (const f of sorted.slice(0, TIMELINE_MAX)) parts.push(entityBullet(page, slug, f, today, supersededBy.get(f.id)));
  if (sorted.length > TIMELINE_MAX) {
    const rest = sorted.slice(TIMELINE_MAX);
    parts.push(
      `- … ${rest.length} older fact${rest.length === 1 ? "" : "s"} (${rest[rest.length - 1]!.date} to ${rest[0]!.date}) in the logs: \`membank recall @${slug}\``,
    );
  }
  return parts.join("\n");
}

/** How the prose mentions begin inside the facts region (after the fact list). */
export const MENTIONS_HEADING = "\n\n### Mentioned in (";

/** The prose mentions that end the facts region ("" when there are none), starting with MENTIONS_HEADING. */
export function mentionsBlock(page: string, mentions: readonly LineMention[]): string {
  if (mentions.length === 0) return "";
  const list = newestMentions(mentions);
  const parts = [`${MENTIONS_HEADING}${list.length} line${list.length === 1 ? "" : "s"} with no fact)`, ""];
  for (const m of list.slice(0, MENTIONS_MAX)) parts.push(`- ${m.date ?? "-"} — ${snippet(m.text)} (${link(page, m)})`);
  if (list.length > MENTIONS_MAX) parts.push(`- … ${list.length - MENTIONS_MAX} older`);
  return parts.join("\n");
}

/** Name-like tokens of a text: the entity grammar's characters (`ledger-sync`, `Node.js`), edge punctuation cut. */
export function nameTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.normalize("NFC").split(/[^\p{L}\p{N}\p{M}_\-.'’+#]+/u)) {
    const t = raw.replace(/^[-.'’]+|[-.'’]+$/gu, "").replace(/['’]s$/u, "");
    if (t) out.push(t);
  }
  return out;
}

/**
 * Related entities: those tagged on the same facts, and known entities named in the
 * facts' text without `@` ("moved the ledger-sync review"), most shared first.
 */
export function entityRelatedOf(
  slug: string,
  facts: readonly Fact[],
  known: ReadonlyMap<string, string>,
  limit = 20,
): string {
  const self = entityKey(slug);
  const counts = new Map<string, number>();
  for (const f of facts) {
    const names = new Set(f.entities);
    for (const t of nameTokens(f.content)) {
      const name = known.get(entityKey(t));
      if (name !== undefined) names.add(name);
    }
    for (const e of names) if (entityKey(e) !== self) counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  const list = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, limit);
  if (list.length === 0) return "None yet.\n";
  return `${list.map(([e, n]) => `- [${e}](${encodeURIComponent(entityFileStem(e))}.md) — ${n} shared fact${n === 1 ? "" : "s"}`).join("\n")}\n`;
}
