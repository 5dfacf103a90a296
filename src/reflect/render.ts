import path from "node:path";
import type { LlmServices } from "../llm/types.js";
import type { Opinion } from "../markdown/opinions.js";
import { OPINIONS_PAGE, PROPOSALS_PAGE } from "../markdown/pages.js";
import { applyRegions, readRegions, toLf, writtenBody } from "../markdown/regions.js";
import { entityFileStem } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import type { Workspace } from "../workspace/workspace.js";
import type { EntityWorld } from "./entity-context.js";
import {
  type EntityContext,
  entityRelatedOf,
  entityState,
  entityTimeline,
  MENTIONS_MAX,
  maybeSameBlock,
  mentionsBlock,
  newestMentions,
} from "./entity-page.js";
import { facetState } from "./facets.js";
import { type FactMemo, loadFactMemo } from "./fact-memo.js";
import { cmp } from "./format.js";
import { readCoreMemory, readWorkspaceFile, readWorkspaceFileSync } from "./load.js";
import { type KeptRegion, loadOpinionMemo, type OpinionMemo } from "./opinion-memo.js";
import { entityOpinions, entityPagePath, entitySummary, proposalsBody, TYPED_PAGES, typedRegions } from "./pages.js";
import { spliceMentions } from "./splice.js";
import { loadTemplate, type TemplateName } from "./templates.js";

/** A typed page's region of one month (`2026-03`, pages.ts typedRegions). */
const MONTH_REGION = /^\d{4}-\d{2}$/;

export interface PageChange {
  path: string;
  before?: string;
  after: string;
}

export interface Conflict {
  path: string;
  region: string;
  reason: string;
}

/** What an incremental run re-renders (see index.ts); absent = everything. */
export interface RenderScope {
  entities: Set<string>;
  /** Entities whose pages gain or lose only prose mentions: their other regions are kept (splice.ts). */
  mentions?: Set<string>;
  /** `<kind>:<YYYY-MM>` */
  months: Set<string>;
}

export interface RenderInput {
  scope?: RenderScope;
  ws: Workspace;
  facts: Fact[];
  opinions: Opinion[];
  /** Existing opinions.md text, if any. */
  opinionsText?: string;
  /** Its opinion regions as membank wrote them, by id (loadOpinions): reused when the opinion memo vouches for them. */
  opinionRegions?: ReadonlyMap<string, KeptRegion>;
  adopted: Set<string>;
  entityTexts: Map<string, string>;
  llm?: LlmServices;
  /** Pages left as they are (git conflict markers in people's text). */
  skip?: ReadonlySet<string>;
  /** MEMORY.md lines, prose mentions, prose-only entities, alias suggestions (entity-context.ts). */
  world?: EntityWorld;
  /** The run's date, YYYY-MM-DD (upcoming vs past). */
  today?: string;
  /**
   * The bank pages as this run read them at its start (restored.ts checkPutBack), absent = no
   * such page, and MEMORY.md's text: not read again (the typed pages and opinions.md are ~3 MB
   * on ten years). Without them, they are read here.
   */
  pageTexts?: ReadonlyMap<string, string>;
  core?: string;
}

export interface RenderResult {
  pages: PageChange[];
  conflicts: Conflict[];
  warnings: string[];
  /** Per-fact derivations for the next run (fact-memo.ts): the caller saves it with the pages. */
  memo: FactMemo;
  /** Rendered opinions for the next run (opinion-memo.ts): saved with the pages too. */
  opinionMemo: OpinionMemo;
}

/** Render every bank page; returns only the pages whose bytes change. */
/** Items filed under each of their entities (an item with two entities is in both lists). */
function groupByEntity<T extends { entities: readonly string[] }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    for (const e of item.entities) {
      const list = out.get(e);
      if (list) list.push(item);
      else out.set(e, [item]);
    }
  }
  return out;
}

const MANAGED = /<!--\s*membank:begin /;
const ENTITY_REGIONS = ["summary", "facts", "opinions", "related"];

export async function renderBank(input: RenderInput): Promise<RenderResult> {
  const { ws } = input;
  const pageText = async (rel: string) => (input.pageTexts ? input.pageTexts.get(rel) : readWorkspaceFile(ws, rel));
  const templates = new Map<string, string>();
  const pages: PageChange[] = [];
  const conflicts: Conflict[] = [];
  const warnings: string[] = [];
  const memo = await loadFactMemo(ws, input.facts);

  const put = async (
    rel: string,
    template: TemplateName,
    before: string | undefined,
    bodies: Map<string, string>,
    order?: string[],
    force?: Set<string>,
    name?: string,
    drop?: Pick<ReadonlySet<string>, "has">,
  ) => {
    if (input.skip?.has(rel)) return;
    const base = before ?? (await loadTemplate(ws, template, templates, name === undefined ? {} : { name }));
    const res = applyRegions(base, bodies, order, force, rel, drop);
    for (const region of res.conflicts) {
      conflicts.push({ path: rel, region, reason: "edited by hand since membank wrote it; kept" });
    }
    if (res.text !== before)
      pages.push(before === undefined ? { path: rel, after: res.text } : { path: rel, before, after: res.text });
  };

  // Opinions, in file order then creation order. A new one goes in before the first one first
  // stated on a later day (a back-dated log's opinion lands where a full run puts it); regions
  // already on the page never move (applyRegions only places missing ones by this order).
  const opinionMemo = await loadOpinionMemo(ws);
  const opBodies = new Map<string, string>();
  for (const op of input.opinions) opBodies.set(op.id, opinionMemo.render(op, input.opinionRegions?.get(op.id)));
  const opOrder = input.opinions
    .map((op, i) => ({ id: op.id, created: op.created, i }))
    .sort((a, b) => cmp(a.created, b.created) || a.i - b.i)
    .map((o) => o.id);
  await put(OPINIONS_PAGE, "opinions", input.opinionsText, opBodies, opOrder, input.adopted);

  // Entity pages.
  const factsByEntity = groupByEntity(input.facts);
  const opinionsByEntity = groupByEntity(input.opinions);
  // A page membank wrote whose entity has no facts left (their log was deleted or edited)
  // is rendered too, so it never cites lines that are gone.
  // Texts are keyed by file stem; a stem is its own entity name (entityFileStem is idempotent).
  const live = [...new Set([...factsByEntity.keys(), ...opinionsByEntity.keys()])];
  const liveStems = new Set(live.map(entityFileStem));
  const managed = [...input.entityTexts]
    // (A legacy page whose name is no portable file name, e.g. `CON.md`, is left as it is.)
    .filter(([stem, text]) => MANAGED.test(text) && !liveStems.has(stem) && entityFileStem(stem) === stem)
    .map(([stem]) => stem);
  const slugs = [...new Set([...live, ...managed, ...(input.world?.proseOnly ?? [])])].sort();
  const today = input.today ?? new Date().toISOString().slice(0, 10);
  const lines = lineReader(ws);
  for (const slug of slugs) {
    const facts = factsByEntity.get(slug) ?? [];
    const before = input.entityTexts.get(entityFileStem(slug));
    const mentionsOnly = input.scope?.mentions?.has(slug) === true && before !== undefined;
    if (input.scope && before !== undefined && !input.scope.entities.has(slug) && !mentionsOnly) continue;
    const page = entityPagePath(slug);
    const found: EntityContext = input.world?.context(slug, facts) ?? {
      today,
      core: [],
      mentions: [],
      maybeSame: [],
      known: new Map(),
    };
    // Only the listed mentions need their line's text.
    // Sorted once here (a 10-year entity has thousands of mentions; sorting sorted input again is linear).
    const ctx: EntityContext = { ...found, mentions: newestMentions(found.mentions) };
    for (const m of ctx.mentions.slice(0, MENTIONS_MAX)) m.text = lines(m.path, m.line);
    // Only the mentions changed: keep the fact-derived regions (an LLM summary is re-asked when the facts region changes, so not then).
    const kept =
      mentionsOnly && facts.length > 0 && !input.llm?.summarizeEntity
        ? spliceMentions(before!, mentionsBlock(page, ctx.mentions), maybeSameBlock(ctx.maybeSame))
        : undefined;
    if (kept) {
      kept.set("opinions", entityOpinions(opinionsByEntity.get(slug) ?? []));
      await put(page, "entity", before, kept, ENTITY_REGIONS, undefined, slug);
      continue;
    }
    const bodies = new Map<string, string>();
    const facets = facetState(facts, [slug], memo);
    const factsBody = entityTimeline(page, slug, facts, ctx, facets);
    const head = await summary(input, slug, facts, factsBody, before, warnings, ctx.mentions);
    const state = entityState(page, slug, facts, ctx, facets);
    bodies.set("summary", state ? `${head}\n${state}` : head);
    bodies.set("facts", factsBody);
    bodies.set("opinions", entityOpinions(opinionsByEntity.get(slug) ?? []));
    bodies.set("related", entityRelatedOf(slug, facts, ctx.known));
    await put(page, "entity", before, bodies, ENTITY_REGIONS, undefined, slug);
  }

  // Typed pages.
  const byKind = new Map<Fact["kind"], Fact[]>();
  for (const f of input.facts) {
    const list = byKind.get(f.kind);
    if (list) list.push(f);
    else byKind.set(f.kind, [f]);
  }
  for (const [kind, rel] of Object.entries(TYPED_PAGES) as [Fact["kind"], string][]) {
    const before = await pageText(rel);
    const scope = before === undefined ? undefined : input.scope; // a missing page is written whole
    const all = byKind.get(kind) ?? [];
    const { bodies, order } = typedRegions(
      rel,
      scope ? all.filter((f) => scope.months.has(`${kind}:${f.date.slice(0, 7)}`)) : all,
      all,
    );
    const template = path.posix.basename(rel, ".md") as TemplateName;
    if (before === undefined && bodies.size === 0) continue;
    // A month whose last fact is gone (its log deleted or edited) leaves the page, not a list citing dead lines.
    // Asked of the page's regions as applyRegions reads them (a 1 MB page is not read twice).
    const months = new Set(order);
    const stale = { has: (name: string) => MONTH_REGION.test(name) && !months.has(name) };
    // A page left as it is still has its markers checked, as before.
    if (before !== undefined && input.skip?.has(rel)) readRegions(before, rel);
    await put(rel, template, before, bodies, order, undefined, undefined, before === undefined ? undefined : stale);
  }

  // Proposals for MEMORY.md.
  const core = input.core ?? (await readCoreMemory(ws)).text;
  const proposals = proposalsBody(input.opinions, factsByEntity, ws.config.reflect.proposals, core, memo);
  await put(PROPOSALS_PAGE, "proposals", await pageText(PROPOSALS_PAGE), new Map([["proposals", proposals]]));

  return { pages, conflicts, warnings, memo, opinionMemo };
}

/**
 * The summary region: deterministic without an LLM. With llm.summarizeEntity, the LLM
 * is asked only when the entity's facts changed (or there is no summary yet), so a
 * second run makes no new call and changes no byte.
 */
async function summary(
  input: RenderInput,
  slug: string,
  facts: Fact[],
  factsBody: string,
  before: string | undefined,
  warnings: string[],
  mentions: EntityContext["mentions"],
): Promise<string> {
  const fallback = entitySummary(slug, facts, mentions);
  const summarize = input.llm?.summarizeEntity;
  if (!summarize || facts.length === 0) return fallback;
  let regions: ReturnType<typeof readRegions> = [];
  try {
    regions = before === undefined ? [] : readRegions(before);
  } catch {
    regions = [];
  }
  const old = regions.find((r) => r.name === "summary");
  const oldFacts = regions.find((r) => r.name === "facts");
  // As membank wrote them (LF endings, a formatter's blank lines aside); a region without a hash as it is.
  const body = (r: typeof old) => (r === undefined ? undefined : r.sha === undefined ? toLf(r.body) : writtenBody(r));
  const summaryBody = body(old);
  if (summaryBody !== undefined && summaryBody.trim() !== "" && body(oldFacts) === factsBody) {
    // The summary is the region's first paragraph; the current-state block follows it.
    return `${summaryBody.split("\n\n")[0]!.trimEnd()}\n`;
  }
  try {
    const text = await summarize.call(input.llm, slug, facts);
    if (text?.trim()) return `${text.trim()}\n`;
  } catch (error) {
    warnings.push(`entity summary of @${slug} failed: ${(error as Error).message}; used the deterministic summary`);
  }
  return fallback;
}

/**
 * Text of a line of a workspace file (for prose mentions), files read once per run. Read
 * synchronously: a page lists up to MENTIONS_MAX lines of as many small logs, and a
 * thread-pool round trip per log costs more than its read.
 */
function lineReader(ws: Workspace): (rel: string, line: number) => string {
  const cache = new Map<string, string[]>();
  return (rel, line) => {
    let lines = cache.get(rel);
    if (!lines) {
      lines = (readWorkspaceFileSync(ws, rel) ?? "").split(/\r?\n/);
      cache.set(rel, lines);
    }
    return lines[line - 1] ?? "";
  };
}
