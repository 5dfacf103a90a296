import { fmt2, type Opinion } from "../markdown/opinions.js";
import { ENTITY_DIR } from "../markdown/pages.js";
import { entityFileStem } from "../retain/entities.js";
import type { Fact, FactKind } from "../retain/types.js";
import { cmp, factBullet, KIND_ORDER, monthTitle, newestFirst } from "./format.js";

/** Pure renderers of region bodies. Every order here is total, so the bytes are stable. */

export const TYPED_PAGES: Readonly<Partial<Record<FactKind, string>>> = {
  world: "bank/world.md",
  experience: "bank/experience.md",
  observation: "bank/observations.md",
};

/** The page of an entity: its name when that is a portable file name (see entityFileStem). */
export function entityPagePath(slug: string): string {
  return `${ENTITY_DIR}/${entityFileStem(slug)}.md`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The headline of an entity page: how much the logs say and when (the state block follows it). */
export function entitySummary(
  slug: string,
  facts: Fact[],
  mentions: readonly { path: string; date?: string }[] = [],
): string {
  if (facts.length === 0) {
    if (mentions.length === 0) return `@${slug}: no facts in the logs now.\n`;
    const dates = mentions.map((m) => m.date ?? "").sort();
    const logs = new Set(mentions.map((m) => m.path)).size;
    return `@${slug}: no facts yet; named on ${plural(mentions.length, "line")} of ${plural(logs, "log")}, first ${dates[0]}, last ${dates[dates.length - 1]}.\n`;
  }
  const sorted = [...facts].sort(newestFirst);
  const days = new Set(facts.map((f) => f.date));
  const counts = KIND_ORDER.map((k) => [k, facts.filter((f) => f.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => (k === "opinion" || k === "observation" ? plural(n, k) : `${n} ${k}`));
  const first = sorted[sorted.length - 1]?.date ?? "-";
  const last = sorted[0]?.date ?? "-";
  return `@${slug}: ${plural(facts.length, "fact")} on ${plural(days.size, "day")} (${counts.join(", ")}), first seen ${first}, last seen ${last}.\n`;
}

export function entityOpinions(opinions: Opinion[]): string {
  if (opinions.length === 0) return "No opinions yet.\n";
  const sorted = [...opinions].sort((a, b) => cmp(a.created, b.created) || cmp(a.id, b.id));
  return `${sorted
    .map((op) => {
      const prev = op.previous === undefined ? "" : `, previous ${fmt2(op.previous)}`;
      return `- ${fmt2(op.confidence)} — ${op.statement} (updated ${op.lastUpdated}${prev}; \`${op.id}\` in [opinions](../opinions.md))`;
    })
    .join("\n")}\n`;
}

/** Typed page bodies: one region per month (`YYYY-MM`), newest month first. */
export function typedRegions(
  page: string,
  facts: Fact[],
  allFacts: Fact[] = facts,
): { bodies: Map<string, string>; order: string[] } {
  const months = new Map<string, Fact[]>();
  for (const f of facts) {
    const m = f.date.slice(0, 7);
    const list = months.get(m) ?? [];
    list.push(f);
    months.set(m, list);
  }
  // The order covers every month (so a new region lands in its place) even when only some are rendered.
  const order = [...new Set(allFacts.map((f) => f.date.slice(0, 7)))].sort().reverse();
  const bodies = new Map<string, string>();
  for (const m of order) {
    const list = months.get(m)?.sort(newestFirst);
    if (!list) continue;
    bodies.set(m, `## ${monthTitle(m)}\n\n${list.map((f) => factBullet(page, f, true)).join("\n")}\n`);
  }
  return { bodies, order };
}

// Proposals for MEMORY.md have their own module.
export { type ProposalRules, proposalsBody } from "./proposals.js";
