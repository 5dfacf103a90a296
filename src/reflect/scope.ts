import type { Opinion } from "../markdown/opinions.js";
import { entityKey, respellAll } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import type { EntityWorld } from "./entity-context.js";
import { nameTokens } from "./entity-page.js";
import { applyAliases, type LoadedFacts } from "./load.js";
import { foldName as fold } from "./name-ties.js";
import type { RenderScope } from "./render.js";

export interface ScopeInput {
  since: string;
  today: string;
  loaded: LoadedFacts;
  /** Every fact, aliased and respelled. */
  facts: readonly Fact[];
  aliases: Map<string, string>;
  spellings: Map<string, string>;
  opinions: readonly Opinion[];
  /** Opinions this run moved, or whose hand edits it adopted. */
  moved: ReadonlySet<string>;
  /** Entity pages membank wrote (entities too when they have no fact left). */
  managed: readonly string[];
  world: EntityWorld;
  /** Keys of pages whose prose spellings changed since the last run (name-decisions.ts). */
  namesMoved?: ReadonlySet<string>;
  /** MEMORY.md's text: a line naming two entities suggests they may be one (entity-context.ts). */
  core?: string;
}

/**
 * What an incremental run re-renders: pages of entities with facts in the window (now or
 * in the previous run), of opinions that moved or were edited, of facts whose validity
 * crossed the run's date, and the months of the typed pages the window touches. Every other
 * page would render to the bytes it already has. Entities the window's prose names but
 * none of the above touches are listed apart (`mentions`): only their "Mentioned in" block
 * can change (splice.ts).
 */
export function incrementalScope(input: ScopeInput): RenderScope {
  const { since, loaded, facts } = input;
  const windowFacts = respellAll(
    applyAliases([...loaded.windowBefore, ...loaded.facts.filter((f) => f.date >= since)], input.aliases),
    input.spellings,
  );
  const entities = new Set(windowFacts.flatMap((f) => f.entities));
  // Pages that became or stopped being entities: facts naming them without `@` list them as
  // related (entity-page.ts), old facts too, so those facts' pages are redone.
  const keysOf = (list: readonly Fact[]) => new Set(list.flatMap((f) => f.entities.map(entityKey)));
  const before = keysOf(respellAll(applyAliases(loaded.windowBefore, input.aliases), input.spellings));
  const old = keysOf(facts.filter((f) => f.date < since));
  const now = keysOf(windowFacts.filter((f) => f.date >= since));
  const changed = new Set(input.namesMoved);
  for (const k of now) if (!old.has(k) && !before.has(k)) changed.add(k);
  for (const k of before) if (!old.has(k) && !now.has(k)) changed.add(k);
  for (const e of namingFacts(facts, changed)) entities.add(e);
  // A page that came or went changes the "maybe the same as" of the names that differ from it
  // only by accents, and of the others a MEMORY.md line names with it.
  if (changed.size > 0) {
    const named = new Set<string>();
    const folds = new Set([...changed].map(fold));
    const pages = new Set([
      ...facts.flatMap((f) => f.entities),
      ...input.opinions.flatMap((op) => op.entities),
      ...input.world.proseOnly,
      ...input.managed,
    ]);
    for (const name of pages) if (folds.has(fold(name))) named.add(entityKey(name));
    for (const line of (input.core ?? "").split(/\r?\n/)) {
      const keys = nameTokens(line).map(entityKey);
      if (keys.some((k) => changed.has(k))) for (const k of keys) named.add(k);
    }
    for (const name of pages) if (named.has(entityKey(name))) entities.add(name);
  }
  for (const op of input.opinions) if (input.moved.has(op.id)) for (const e of op.entities) entities.add(e);
  // A fact that was upcoming at the last run and is past now (or the other way round).
  const [lo, hi] = [loaded.asOf ?? input.today, input.today].sort();
  for (const f of facts) {
    const crossed = [f.validFrom, f.validTo].some((d) => d !== undefined && d >= lo! && d <= hi!);
    if (crossed) for (const e of f.entities) entities.add(e);
  }
  // Prose mentions in the window (now or in the previous run).
  const windowLogs = [...loaded.proseBefore, ...loaded.prose.filter((l) => l.date >= since)];
  const keys = input.world.proseKeys(windowLogs);
  const mentions = new Set<string>();
  for (const name of new Set([...facts.flatMap((f) => f.entities), ...input.world.proseOnly, ...input.managed]))
    if (keys.has(entityKey(name)) && !entities.has(name)) mentions.add(name);
  return { entities, mentions, months: new Set(windowFacts.map((f) => `${f.kind}:${f.date.slice(0, 7)}`)) };
}

/** Entities of the facts whose text names one of `keys` (a name token, as entityRelatedOf reads it). */
function namingFacts(facts: readonly Fact[], keys: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (keys.size === 0) return out;
  const words = [...keys];
  for (const f of facts) {
    // Folded as entityKey folds a name, so a key is a substring of the text that names it.
    const text = f.content.normalize("NFC").toLowerCase().toUpperCase().toLowerCase().normalize("NFC");
    // Most facts name none of them: a substring test before splitting the text into tokens.
    if (!words.some((w) => text.includes(w))) continue;
    if (nameTokens(f.content).some((t) => keys.has(entityKey(t)))) for (const e of f.entities) out.add(e);
  }
  return out;
}
