/**
 * A fingerprint of the code that derives reflect's memos (fact-memo.ts, prose-memo.ts), so a
 * changed rule anywhere it reaches (a regex inside a function of cues.ts, a name rule of
 * prose.ts, a word list) drops every memo entry instead of leaving stale ones in use. In the
 * build or the sources, every module of the folders the derivations live in (analysis, reflect,
 * retain, markdown, and sessions: which digest holds a /new copy's chat decides its prose, see
 * reflect/prose-logs.ts); the bundle carries its build's value, else hashes itself (all the code).
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DERIVING_DIRS = ["../analysis", ".", "../retain", "../markdown", "../sessions"];

// Set by scripts/bundle.mjs to the tsc build's fingerprint of the same code, so the bundle and
// the build it was made with keep each other's memos (the bench's in-process set-up, then the CLI).
declare const __membankDerivingCode: string | undefined;

async function fingerprint(): Promise<string> {
  if (typeof __membankDerivingCode === "string") return __membankDerivingCode;
  const hash = createHash("sha256");
  try {
    const here = fileURLToPath(import.meta.url);
    const ext = path.extname(here);
    if (path.basename(here, ext) !== "code-fingerprint") {
      hash.update(await readFile(here)); // the bundle
    } else {
      for (const rel of DERIVING_DIRS) {
        const dir = path.resolve(path.dirname(here), rel);
        const names = (await readdir(dir)).filter((n) => n.endsWith(ext) && !n.includes(".test.")).sort();
        for (const name of names) hash.update(name).update(await readFile(path.join(dir, name)));
      }
    }
  } catch {
    hash.update("no source"); // code loaded from elsewhere: each memo's own version still counts
  }
  return hash.digest("hex").slice(0, 16);
}

let once: Promise<string> | undefined;
/** Computed once per process. */
export function derivingCode(): Promise<string> {
  once ??= fingerprint();
  return once;
}
