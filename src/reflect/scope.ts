import type { Opinion } from "../markdown/opinions.js";
import { entityKey, respellAll } from "../retain/entities.js";
import type { Fact } from "../retain/types.js";
import type { EntityWorld } from "./entity-context.js";
import { applyAliases, type LoadedFacts } from "./load.js";
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
