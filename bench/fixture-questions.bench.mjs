#!/usr/bin/env node
// Top-1 / top-3 of recall on the fixtures' natural questions (fixtures/<name>-questions.json),
// the numbers test/<name>-fixture.test.ts states, in one table.
//
//   pnpm build && node bench/fixture-questions.bench.mjs [--misses] [fixture ...]
//
// Each fixture is copied into a fresh git repository in the temp dir, run once through the
// built CLI's nightly with no model and no embeddings (as prose-fixture-support.ts does),
// then each question is asked with recall() (its asOf, when it has one). A hit: a result in
// the top 1 / top 3 whose cited line range holds an expected line. --misses lists the
// questions not in the top 3 with what came instead. Default: every fixture with questions.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { helpFromHeader } from "./index-support.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
helpFromHeader();
const args = process.argv.slice(2);
const showMisses = args.includes("--misses");
const named = args.filter((a) => !a.startsWith("--"));
const fixtures =
  named.length > 0
    ? named
    : readdirSync(path.join(root, "fixtures"))
        .filter((f) => f.endsWith("-questions.json"))
        .map((f) => f.replace(/-questions\.json$/, ""))
        .sort();
const { openMembank } = await import(path.join(root, "dist/src/membank.js"));

const covers = (source, want) => {
  const [p, l] = want.split("#L");
  const m = /^(.*)#L(\d+)-L(\d+)$/u.exec(source);
  return !!m && m[1] === p && Number(m[2]) <= Number(l) && Number(l) <= Number(m[3]);
};
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@localhost",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@localhost",
};

console.log("| fixture | questions | top-1 | top-3 | known misses |\n|---|---|---|---|---|");
for (const fx of fixtures) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `membank-fq-${fx}-`));
  try {
    cpSync(path.join(root, "fixtures", fx), dir, { recursive: true });
    writeFileSync(path.join(dir, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
    for (const a of [
      ["init", "-q", "-b", "main"],
      ["add", "-A"],
      ["commit", "-q", "-m", "user: my notes"],
    ])
      execFileSync("git", a, { cwd: dir, env, stdio: "pipe" });
    execFileSync("node", [path.join(root, "dist/membank.cjs"), "run", "nightly", "--workspace", dir], {
      env,
      stdio: "pipe",
    });
    const questions = JSON.parse(readFileSync(path.join(root, "fixtures", `${fx}-questions.json`), "utf8"));
    const mb = await openMembank(dir);
    let top1 = 0;
    let top3 = 0;
    const misses = [];
    for (const q of questions) {
      const res = await mb.recall(q.q, q.asOf ? { asOf: new Date(`${q.asOf}T12:00:00Z`) } : {});
      const top = res.results.slice(0, 3).map((r) => r.source);
      const rank = top.findIndex((s) => q.expect.some((w) => covers(s, w)));
      if (rank === 0) top1++;
      if (rank >= 0) top3++;
      else
        misses.push(
          `  ${fx}: ${q.q}${q.asOf ? ` (asOf ${q.asOf})` : ""}\n    want ${q.expect.join(" ")}\n    got  ${top.join(" | ")}`,
        );
    }
    await mb.close();
    const known = questions.filter((q) => q.knownMiss).length;
    console.log(`| ${fx} | ${questions.length} | ${top1} | ${top3} | ${known} |`);
    if (showMisses && misses.length > 0) console.log(misses.join("\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
