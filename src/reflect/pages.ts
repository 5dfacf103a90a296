import { fmt2, type Opinion } from "../markdown/opinions.js";
import { entityFileStem } from "../retain/entities.js";
import type { Fact, FactKind } from "../retain/types.js";
import { cmp, factBullet, KIND_ORDER, KIND_TITLES, monthTitle, newestFirst } from "./format.js";

/** Pure renderers of region bodies. Every order here is total, so the bytes are stable. */

export const ENTITY_DIR = "bank/entities";
export const TYPED_PAGES: Readonly<Partial<Record<FactKind, string>>> = {
  world: "bank/world.md",
  experience: "bank/experience.md",
  observation: "bank/observations.md",
};

/** The page of an entity: its name when that is a portable file name (see entityFileStem). */
export function entityPagePath(slug: string): string {
  return `${ENTITY_DIR}/${entityFileStem(slug)}.md`;
}

/** How many of the newest facts the deterministic summary quotes. */
const SUMMARY_RECENT = 3;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function entitySummary(slug: string, facts: Fact[]): string {
  if (facts.length === 0) return `@${slug}: no facts in the logs now.\n`;
  const page = entityPagePath(slug);
  const sorted = [...facts].sort(newestFirst);
  const days = new Set(facts.map((f) => f.date));
  const counts = KIND_ORDER.map((k) => [k, facts.filter((f) => f.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => (k === "opinion" || k === "observation" ? plural(n, k) : `${n} ${k}`));
  const first = sorted[sorted.length - 1]?.date ?? "-";
  const last = sorted[0]?.date ?? "-";
  const lines = [
    `@${slug}: ${plural(facts.length, "fact")} on ${plural(days.size, "day")} (${counts.join(", ")}), first seen ${first}, last seen ${last}.`,
  ];
  const world = sorted.filter((f) => f.kind === "world").slice(0, SUMMARY_RECENT);
  const recent = world.length > 0 ? world : sorted.slice(0, SUMMARY_RECENT);
  if (recent.length > 0) {
    lines.push("", world.length > 0 ? "Latest world facts:" : "Latest facts:", "");
    for (const f of recent) lines.push(factBullet(page, f));
  }
  return `${lines.join("\n")}\n`;
}

export function entityFacts(slug: string, facts: Fact[]): string {
  const page = entityPagePath(slug);
  const parts: string[] = [];
  for (const kind of KIND_ORDER) {
    const list = facts.filter((f) => f.kind === kind).sort(newestFirst);
    if (list.length === 0) continue;
    parts.push(`### ${KIND_TITLES[kind]}\n\n${list.map((f) => factBullet(page, f)).join("\n")}\n`);
  }
  return parts.length ? parts.join("\n") : "No facts yet.\n";
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

/** Co-mentioned entities with the number of facts they share, most shared first. */
export function entityRelated(slug: string, facts: Fact[], limit = 20): string {
  const counts = new Map<string, number>();
  for (const f of facts) for (const e of new Set(f.entities)) if (e !== slug) counts.set(e, (counts.get(e) ?? 0) + 1);
  const list = [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, limit);
  if (list.length === 0) return "None yet.\n";
  return `${list.map(([e, n]) => `- [${e}](${encodeURIComponent(entityFileStem(e))}.md) — ${plural(n, "shared fact")}`).join("\n")}\n`;
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
