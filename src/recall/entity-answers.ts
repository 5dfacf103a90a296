/**
 * Entity answers (issue 14 item 1): "Who is Elin?", "what do we know about ledger-sync?",
 * "the tester from France". The answer a person would give first is what the core memory
 * says about the entity, then what its bank page says it is now, then its latest facts and
 * its opinions, a reversed or weakened belief after the current ones. The entity is named
 * by a name, an alias (the page's, or one MEMORY.md states), a near-miss spelling, or a
 * description that matches its core-memory or current-state lines.
 */

import { fold, nameWords } from "../analysis/tokens.js";
import { coreMemoryFile, fileLines, profileSourcesVersion } from "../index/entity-answers.js";
import { type EntityRow, hasOpinions, opinionsByEntity } from "../index/queries.js";
import { factsAtLines, factsOfEntities } from "../index/recall-queries.js";
import { citedSource } from "../markdown/citation.js";
import { entityKey } from "../retain/entities.js";
import type { ArmContext } from "./arms.js";
import { factCandidate } from "./candidates.js";
import {
  currentStateLines,
  describedEntity,
  describeWord,
  type EntityProfile,
  editDistance,
  readCoreMemory,
  type TextLine,
} from "./entity-profile.js";
import { lexicalTerms, matchEntities } from "./intent.js";
import { hasLineStore } from "./lines.js";
import { opinionCandidate } from "./opinions.js";
import { roleEntities } from "./roles.js";
import { nameKey } from "./text.js";
import type { ArmList, Candidate } from "./types.js";

/** How much the entity answer outweighs the entity arm it replaces: it leads an entity question. */
export const ENTITY_ANSWER_BOOST = 1.5;

/** Frames that ask for a person: a description under them may match loosely ("who is the tester from France?"). */
const WHO = /^\s*(?:who(?:'s|’s|\s+is|\s+are|\s+was)\b|remind\s+me\s+who\b)/i;

/** Question frames that ask who or what something is. */
const FRAME =
  /^\s*(?:who(?:'s|’s|\s+is|\s+are|\s+was)\b|tell\s+me\s+(?:more\s+)?about\b|what\s+do\s+(?:we|you|i)\s+know\s+about\b|what(?:'s|’s|\s+is)\s+(?:going\s+on|up|new|happening|the\s+(?:latest|news|story|deal|status))\s+(?:with|on|from|about)\b|what\s+about\b|how(?:'s|’s|\s+is)\s+\S+(?:\s+\S+)?\s+doing\b|any\s+news\s+(?:on|about|from)\b|remind\s+me\s+(?:who|about)\b|(?:info|update|background)\s+on\b)/i;

/** A description with no question word: "the tester from France", "our architect". */
const DESCRIPTION = /^\s*(?:the|our|my|that|this)\s/i;

/** Words that ask for an entity's state rather than name a topic ("what's the latest from Jo?"). */
const ASKING = new Set(
  "latest new news status update updates doing info background story deal role lately currently current now more whos who".split(
    " ",
  ),
);

export interface EntityQuestion {
  /** The entity and its other spellings (case variants, aliases MEMORY.md states), best first. */
  slugs: string[];
  how: "name" | "alias" | "spelling" | "description";
}

interface Profiles {
  file?: string;
  profiles: Map<string, EntityProfile>;
  /** Core memory and current-state words per entity, built when a description first needs them. */
  described?: Map<string, { words: Set<string> }>;
}

/** Profiles per open index, rebuilt when the core memory or an entity page changes (a question must not re-read them). */
const cache = new WeakMap<object, { version: string; value: Profiles }>();

function profilesOf(ctx: Pick<ArmContext, "idx">, entities: readonly EntityRow[]): Profiles {
  const version = `${profileSourcesVersion(ctx.idx)}\u0002${entities.map((e) => `${e.slug}:${e.aliases.join(",")}`).join(";")}`;
  const hit = cache.get(ctx.idx);
  if (hit && hit.version === version) return hit.value;
  const file = coreMemoryFile(ctx.idx);
  const names = entities.map((e) => ({ slug: e.slug, names: [e.name, ...e.aliases] }));
  const value: Profiles = file
    ? { file, profiles: readCoreMemory(fileLines(ctx.idx, file), names) }
    : { profiles: new Map() };
  cache.set(ctx.idx, { version, value });
  return value;
}

/** Every spelling of an entity: case and accent variants, page aliases, and aliases the core memory states. */
function spellings(slug: string, entities: readonly EntityRow[], profiles: Map<string, EntityProfile>): string[] {
  const keys = new Set([nameKey(slug)]);
  const p = [...profiles.values()].find((x) => nameKey(x.slug) === nameKey(slug));
  for (const a of p?.aliases ?? []) keys.add(nameKey(a));
  for (const q of profiles.values()) if (q.aliases.some((a) => nameKey(a) === nameKey(slug))) keys.add(nameKey(q.slug));
  const out = new Set<string>([slug]);
  for (const e of entities) {
    if ([e.slug, e.name, ...e.aliases].some((n) => keys.has(nameKey(n)) || entityKey(n) === entityKey(slug))) {
      out.add(e.slug);
    }
  }
  // The spelling the core memory talks about first (its lines are the answer), then by facts.
  const facts = new Map(entities.map((e) => [e.slug, e.facts]));
  return [...out].sort(
    (a, b) =>
      (profiles.get(b)?.lines.length ?? 0) - (profiles.get(a)?.lines.length ?? 0) ||
      (facts.get(b) ?? 0) - (facts.get(a) ?? 0) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
}

/**
 * Is the query an entity question, and about which entity? Pure apart from its inputs:
 * a named entity with no other topic words (or one, under a "who is"-like frame), else,
 * under a frame or as a bare description, a near-miss spelling or a described entity.
 */
export function entityQuestion(
  query: string,
  entities: readonly EntityRow[],
  profiles: Map<string, EntityProfile>,
  /** Profile words for descriptions (default: the core memory's); called only when needed. */
  describe: () => ReadonlyMap<string, { words: ReadonlySet<string> }> = () => profiles,
): EntityQuestion | undefined {
  const names = entities.map((e) => ({ slug: e.slug, names: [e.name, ...e.aliases] }));
  for (const p of profiles.values()) if (p.aliases.length > 0) names.push({ slug: p.slug, names: p.aliases });
  const words = lexicalTerms(query).flatMap((t) => nameWords(t.text));
  const framed = FRAME.test(query) || (DESCRIPTION.test(query) && words.length <= 7);
  const slugs = matchEntities(query, names);
  if (slugs.length > 0) {
    const own = new Set(
      slugs.flatMap((s) =>
        names.filter((n) => n.slug === s).flatMap((n) => [n.slug, ...(n.names ?? [])].flatMap(nameWords)),
      ),
    );
    const rest = words.filter((w) => !own.has(w) && !ASKING.has(w));
    if (rest.length > (framed ? 1 : 0)) return undefined;
    const aliasOnly =
      !entities.some((e) => e.slug === slugs[0]) || !matchEntities(query, names.slice(0, entities.length)).length;
    return { slugs: spellings(slugs[0]!, entities, profiles), how: aliasOnly ? "alias" : "name" };
  }
  if (!framed) return undefined;
  const rest = words.filter((w) => !ASKING.has(w));
  const near = nearName(rest, names);
  if (near) return { slugs: spellings(near, entities, profiles), how: "spelling" };
  const described = describedEntity(rest, describe(), { strict: !WHO.test(query) });
  return described ? { slugs: spellings(described, entities, profiles), how: "description" } : undefined;
}

/** A query word one or two edits from an entity's name ("Elinn", "ledgersync"). */
function nearName(words: readonly string[], names: readonly { slug: string; names?: string[] }[]): string | undefined {
  const found = new Set<string>();
  for (const w of words) {
    if (w.length < 4) continue;
    for (const n of names) {
      for (const name of [n.slug, ...(n.names ?? [])]) {
        const joined = nameWords(name).join("");
        if (joined.length < 4) continue;
        if (editDistance(fold(w), joined, 2) <= (joined.length >= 7 ? 2 : 1)) found.add(n.slug);
      }
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** Profile words of the page's current-state lines, for descriptions ("the new QA person"). */
function withPageWords(
  ctx: Pick<ArmContext, "idx">,
  entities: readonly EntityRow[],
  profiles: Map<string, EntityProfile>,
): Map<string, { words: Set<string> }> {
  const out = new Map<string, { words: Set<string> }>();
  for (const [slug, p] of profiles) out.set(slug, { words: new Set(p.words) });
  const pages = entities.filter((e) => e.page);
  // A bank of thousands of pages: descriptions stay with the core memory (one page read each would cost).
  if (pages.length > 200) return out;
  for (const e of pages) {
    const state = currentStateLines(fileLines(ctx.idx, e.page!));
    if (state.length === 0) continue;
    const entry = out.get(e.slug) ?? { words: new Set<string>() };
    for (const l of state) {
      for (const w of nameWords(l.text.replace(/\(\[.*$/, ""))) if (w.length > 2) entry.words.add(describeWord(w));
    }
    out.set(e.slug, entry);
  }
  return out;
}

/** The words describing each entity (core memory and current-state lines), cached with the profiles. */
export function describingWords(
  ctx: Pick<ArmContext, "idx">,
  entities: readonly EntityRow[],
): ReadonlyMap<string, { words: ReadonlySet<string> }> {
  const cached = profilesOf(ctx, entities);
  cached.described ??= withPageWords(ctx, entities, cached.profiles);
  return cached.described;
}

/**
 * The names of the people a question names by role ("the accountant" is Huw: roles.ts), each
 * name's words once, lower-cased: search words for the lines that say the name instead.
 */
export function roleNameWords(ctx: Pick<ArmContext, "idx">, entities: readonly EntityRow[], query: string): string[] {
  const cached = profilesOf(ctx, entities);
  if (cached.profiles.size === 0) return []; // no core memory: no roles to read
  const out = new Set<string>();
  for (const slug of roleEntities(query, describingWords(ctx, entities))) {
    const row = entities.find((e) => e.slug === slug);
    const names = [slug, ...(row ? [row.name, ...row.aliases] : []), ...(cached.profiles.get(slug)?.aliases ?? [])];
    for (const n of names) for (const w of nameWords(n)) out.add(w);
  }
  return [...out];
}

/**
 * The entity-answer arm: empty unless the query is an entity question. Items best first:
 * the core memory's lines about the entity (subject lines first), its page's current-state
 * lines (as the facts they cite), its newest fact, its current opinions, a few more facts,
 * its weakened or reversed opinions, then its older facts.
 */
export function entityAnswersArm(ctx: ArmContext, entities: readonly EntityRow[], weight: number): ArmList {
  const arm: ArmList = { arm: "entity", weight: weight * ENTITY_ANSWER_BOOST, items: [] };
  // An older membank's index (no line store) keeps the plain entity arm until it is rebuilt.
  if (!hasLineStore(ctx.idx)) return arm;
  const cached = profilesOf(ctx, entities);
  const { file, profiles } = cached;
  const named = entityQuestion(ctx.query, entities, profiles, () => {
    cached.described ??= withPageWords(ctx, entities, profiles);
    return cached.described;
  });
  if (!named) return arm;
  const slugs = named.slugs;
  const cands: Candidate[] = [];
  const seen = new Set<string>();
  const add = (c: Candidate | undefined) => {
    if (!c || seen.has(c.key)) return;
    seen.add(c.key);
    cands.push(c);
  };
  const core = slugs.flatMap((s) => profiles.get(s)?.lines ?? []);
  const ordered = [...core.filter((l) => l.subject), ...core.filter((l) => !l.subject)];
  for (const l of ordered) add(lineCandidate(file!, l, slugs[0]!));
  const rows = entities.filter((e) => slugs.includes(e.slug) && e.page);
  for (const row of rows) {
    for (const l of currentStateLines(fileLines(ctx.idx, row.page!))) {
      const cited = citedSource(l.text);
      const fact = cited && factsAtLines(ctx.idx, cited.path, cited.line, cited.line)[0];
      add(fact ? factCandidate(fact) : lineCandidate(row.page!, l, row.slug));
    }
  }
  const judged = hasOpinions(ctx.idx);
  const opinions = judged ? opinionsByEntity(ctx.idx, slugs, ctx.pool).map(opinionCandidate) : [];
  const given = new Set(opinions.flatMap((o) => (o.evidence ?? []).map((e) => e.source)));
  const facts = factsOfEntities(ctx.idx, slugs, ctx.pool)
    .map(factCandidate)
    // A judged opinion speaks for its log statements (with its current confidence and status).
    .filter((c) => !(judged && c.kind === "opinion") && !given.has(`${c.path}#L${c.startLine}`));
  const current = opinions.filter((o) => o.status !== "reversed" && o.status !== "weakened");
  const lost = opinions.filter((o) => o.status === "reversed" || o.status === "weakened");
  // The newest fact, the current opinions, a few more facts, the beliefs given up (marked
  // so: "[reversed: 0.80 -> 0.37 by ...]"), then the older facts.
  for (const c of facts.slice(0, 1)) add(c);
  for (const c of current) add(c);
  for (const c of facts.slice(1, 4)) add(c);
  for (const c of lost) add(c);
  for (const c of facts.slice(4)) add(c);
  arm.items = cands.slice(0, ctx.pool).map((cand, i, all) => ({ cand, score: 1 - i / (all.length + 1) }));
  return arm;
}

function lineCandidate(path: string, l: TextLine, slug: string): Candidate {
  return {
    key: `lines:${path}#${l.line}`,
    kind: "note",
    path,
    startLine: l.line,
    endLine: l.line,
    entities: [slug],
    content: l.text,
  };
}
