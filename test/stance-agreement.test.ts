import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes, openIndex, syncIndex } from "../src/index/index.js";
import { opinionEvidence } from "../src/recall/candidates.js";
import type { Candidate } from "../src/recall/types.js";
import { judgePair } from "../src/reflect/judge.js";
import { parseRetain } from "../src/retain/parse.js";
import type { Fact } from "../src/retain/types.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

/**
 * Recall's evidence stance and reflect's judge read negation through one cue list
 * (src/analysis/cues.ts), so on the same pair of opinions about a holder they agree.
 * Each pair is an opinion and a later restatement of it, written the way people do.
 */
const PAIRS: [string, string][] = [
  [
    "@Mara: The March launch date for the billing revamp is realistic.",
    "@Mara: Doubts the March launch date for the billing revamp is realistic.",
  ],
  [
    "@Mara: Worried about the flaky payment retries in staging.",
    "@Mara: No longer worried about the flaky payment retries in staging.",
  ],
  [
    "@Mara: Prefers async standups over the daily video call.",
    "@Mara: Still prefers async standups over the daily video call!",
  ],
  [
    "@Mara: Thinks the Postgres upgrade should wait until after Q3.",
    "@Mara: Doesn't think the Postgres upgrade should wait until after Q3.",
  ],
  [
    "@Mara: Likes pairing with Wei on the ledger-sync rewrite.",
    "@Mara: has stopped pairing with Wei on the ledger-sync rewrite",
  ],
  [
    "@Mara: Never deploys on Fridays, the on-call rota is too thin.",
    "@Mara: deploys on Fridays now; the on-call rota is thin but fine.",
  ],
];

let tmp: string;
let ws: Workspace;
const logs: { path: string; text: string }[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-stance-"));
  await mkdir(path.join(tmp, "memory"));
  await writeFile(path.join(tmp, "MEMORY.md"), "# Core\n");
  // One pair per entity, the opinion and its restatement on two different days.
  for (const [i, pair] of PAIRS.entries()) {
    for (const [j, line] of pair.entries()) {
      const date = `2026-03-${String(2 * i + j + 1).padStart(2, "0")}`;
      const rel = `memory/${date}.md`;
      const text = `# ${date}\n\nSome notes.\n\n## Retain\n- O ${line.replace("@Mara", `@Person${i}`)}\n`;
      logs.push({ path: rel, text });
      await writeFile(path.join(tmp, rel), text);
    }
  }
  await writeFile(path.join(tmp, "membank.config.json"), JSON.stringify({ embedding: { provider: "none" } }));
  ws = await openWorkspace(tmp);
  await syncIndex(ws);
});
afterAll(async () => {
  closeIndexes();
  await rm(tmp, { recursive: true, force: true });
});

const factOf = (i: number): Fact => {
  const log = logs[i]!;
  const { facts } = parseRetain(log.path, log.text);
  expect(facts).toHaveLength(1);
  return facts[0]!;
};

describe("recall's and reflect's stance", () => {
  it("agree on every pair", () => {
    const idx = openIndex(ws);
    const seen: string[] = [];
    for (let i = 0; i < PAIRS.length; i++) {
      const older = factOf(2 * i);
      const newer = factOf(2 * i + 1);
      const judged = judgePair(
        { statement: older.content, entities: older.entities, confidence: older.confidence ?? 0.5 },
        newer,
        "restatement",
      );
      const cand: Candidate = {
        key: `fact:${older.source.path}#${older.source.line}`,
        kind: "opinion",
        path: older.source.path,
        startLine: older.source.line,
        endLine: older.source.line,
        entities: older.entities,
        content: older.content,
        factId: older.id,
      };
      const evidence = opinionEvidence(idx, cand);
      expect(evidence, older.content).toHaveLength(1);
      expect(evidence[0]!.source).toBe(`${newer.source.path}#L${newer.source.line}`);
      expect(evidence[0]!.stance, `${older.content} / ${newer.content}`).toBe(judged.stance);
      seen.push(judged.stance);
    }
    // Both stances occur, so the test would notice a cue list that flips everything one way.
    expect(seen).toContain("support");
    expect(seen).toContain("contradict");
    idx.close();
  });
});
