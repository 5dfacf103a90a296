/**
 * An evidence line the person edited (a typo fixed, a word changed) is the same evidence.
 * A fact's id is a hash of its words, so an edited line has a new id: without this, the
 * old entry was marked "no longer in the log" and the edited line was applied again as new
 * evidence, moving the confidence a second time for what the log said once.
 *
 * A gone entry takes the fact that replaced it when that fact is in the same log, on the
 * same day, applied to no opinion yet, keeps most of its text, and has as many negation,
 * reversal and hedge cues (an edit that turns "was the right call" into "was not" is new
 * evidence, judged as such). Pure; the confidence it moved stays as recorded.
 */
import type { Evidence, Opinion } from "../markdown/opinions.js";
import type { Fact, SourceRef } from "../retain/types.js";
import { cmp } from "./format.js";
import { editSimilarity, negationCount } from "./text.js";

/** How much of its text (character trigrams) an edited line keeps: a typo fix or a changed word, not a new line. */
const SAME_TEXT = 0.7;

/** Re-link gone evidence to its edited line, in place; returns the ids of the facts taken. */
export function relinkEdited(opinions: readonly Opinion[], facts: readonly Fact[]): Set<string> {
  const taken = new Set<string>();
  const gone = opinions.flatMap((op) => op.evidence.filter((ev) => ev.gone && ev.content !== undefined));
  if (gone.length === 0) return taken;
  const applied = new Set(opinions.flatMap((op) => op.evidence.map((ev) => ev.factId)));
  const paths = new Set(gone.map((ev) => ev.source.path));
  const byLog = new Map<string, Fact[]>();
  for (const f of facts) {
    if (!paths.has(f.source.path) || applied.has(f.id)) continue;
    const key = `${f.source.path}\n${f.date}`;
    const list = byLog.get(key) ?? [];
    list.push(f);
    byLog.set(key, list);
  }
  // Every (entry, line) pair that may be an edit, best first, then each side taken once.
  const pairs: { ev: Evidence; fact: Fact; score: number; distance: number }[] = [];
  for (const ev of gone) {
    const cues = negationCount(ev.content!);
    for (const fact of byLog.get(`${ev.source.path}\n${ev.date}`) ?? []) {
      if (negationCount(fact.content) !== cues) continue;
      const score = editSimilarity(ev.content!, fact.content);
      if (score >= SAME_TEXT) pairs.push({ ev, fact, score, distance: Math.abs(fact.source.line - ev.source.line) });
    }
  }
  pairs.sort((a, b) => b.score - a.score || a.distance - b.distance || cmp(a.fact.id, b.fact.id));
  const replaced = new Map<Evidence, Fact>();
  for (const p of pairs) {
    if (replaced.has(p.ev) || taken.has(p.fact.id)) continue;
    replaced.set(p.ev, p.fact);
    taken.add(p.fact.id);
  }
  for (const op of opinions) {
    op.evidence = op.evidence.map((ev) => {
      const fact = replaced.get(ev);
      if (fact === undefined) return ev;
      const { gone: _, ...rest } = ev;
      return {
        ...rest,
        factId: fact.id,
        source: { ...fact.source },
        content: fact.content.replace(/\s+/g, " ").trim(),
      };
    });
  }
  return taken;
}

/** The same line of the same file, and nothing else in either (a copy of `b` would equal `a`). */
const sameLine = (a: SourceRef, b: SourceRef): boolean =>
  a.path === b.path && a.line === b.line && Object.keys(a).length === 2 && Object.keys(b).length === 2;

/**
 * Keep evidence links pointing at the line where each fact lives now, in place; evidence whose
 * fact is gone from every log stays (it moved the confidence) but is marked, never a silent
 * dead link. Then a gone entry whose line was only edited is the same evidence (relinkEdited).
 */
export function relinkEvidence(opinions: Opinion[], facts: readonly Fact[]): void {
  // Only the evidence's facts: a map of all of them (ten years, 20k) is built and dropped on every nightly.
  const wanted = new Set(opinions.flatMap((op) => op.evidence.map((ev) => ev.factId)));
  const byId = new Map<string, Fact>();
  for (const f of facts) if (wanted.has(f.id)) byId.set(f.id, f);
  for (const op of opinions) {
    op.evidence = op.evidence.map((ev) => {
      const f = byId.get(ev.factId);
      if (!f) return { ...ev, gone: true };
      const content = f.content.replace(/\s+/g, " ").trim();
      // Most rows already say exactly this (ten years: thousands of them): kept, not copied.
      if (ev.gone === undefined && ev.content === content && sameLine(ev.source, f.source)) return ev;
      const { gone: _, ...rest } = ev;
      return { ...rest, source: { ...f.source }, content };
    });
  }
  relinkEdited(opinions, facts);
}
