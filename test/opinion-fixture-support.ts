/**
 * The belief fixtures' set-up (fixtures/beliefs, beliefs-3, opinions-2): the fixture copied
 * into a git repository, one reflect at `now`, and bank/opinions.md read back as one text
 * block per opinion ("### statement" onwards), with readers for the fields the tests check.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { reflect } from "../src/reflect/index.js";
import { openWorkspace } from "../src/workspace/workspace.js";
import { git, repoRoot } from "./reflect-support.js";

export interface ReflectedFixture {
  /** The workspace (a copy of the fixture). */
  readonly dir: string;
  /** bank/opinions.md after the reflect, one block per opinion. */
  readonly blocks: string[];
}

/** Registers the suite's beforeAll/afterAll: `fixture` reflected once at `now`. */
export function reflectedFixture(fixture: string, now: string): ReflectedFixture {
  const state = { dir: "", blocks: [] as string[] };
  beforeAll(async () => {
    state.dir = await mkdtemp(path.join(tmpdir(), `membank-${fixture}-`));
    await cp(path.join(repoRoot, "fixtures", fixture), state.dir, { recursive: true });
    git(state.dir, "init", "-q", "-b", "main");
    git(state.dir, "add", "-A");
    git(state.dir, "commit", "-q", "-m", "user: notes");
    await reflect(await openWorkspace(state.dir), { now: new Date(now) });
    state.blocks = (await readFile(path.join(state.dir, "bank/opinions.md"), "utf8")).split("### ").slice(1);
  }, 60_000);
  afterAll(async () => {
    closeIndexes();
    await rm(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** The one opinion block whose statement starts with `start` (fails the test when not exactly one). */
export function opinionStarting(blocks: readonly string[], start: string): string {
  const found = blocks.filter((b) => b.startsWith(start));
  expect(found, start).toHaveLength(1);
  return found[0]!;
}

export const confidence = (block: string) => Number(/- confidence: (\d\.\d\d)/.exec(block)![1]);
/** The opinion's entities line, as written ("@Kit, @Rosa"). */
export const entitiesLine = (block: string) => /- entities: (.*)/.exec(block)![1]!;
/** The evidence row of the fact whose text contains `text`. */
export const evidenceRow = (block: string, text: string) =>
  block.split("\n").find((l) => l.startsWith("  - ") && l.includes(text));
/** The weight an evidence row gives its fact ("supports 0.50"), NaN for no row. */
export const evidenceStrength = (r: string | undefined) =>
  Number(/ (?:supports|contradicts) (\d\.\d\d)/.exec(r ?? "")?.[1]);
