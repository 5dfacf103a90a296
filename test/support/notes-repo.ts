// A user's notes committed in a fresh git repository, for tests that run the real bin from an
// ordinary shell (cli-bin.ts): one temp dir per test file, one repository per call.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { ordinaryShellEnv } from "../cli-bin.js";

export interface NotesRepos {
  /** The test file's temp dir (set in beforeAll). */
  tmp: string;
  /** An ordinary user's shell environment for that dir (EDITOR, PAGER, no git identity). */
  env: NodeJS.ProcessEnv;
  /** git with a throwaway identity, in the shell's environment. */
  git(cwd: string, ...args: string[]): string;
  /** A new path under tmp, `<name>-<k>`, not yet made. */
  fresh(name: string): string;
  /** A workspace holding `files` (path -> text), committed as the user's first commit. */
  notes(files: Readonly<Record<string, string>>): string;
}

/** Registers the file's beforeAll/afterAll: the temp dir is made before its tests and removed after. */
export function notesRepos(prefix: string): NotesRepos {
  let k = 0;
  const repos: NotesRepos = {
    tmp: "",
    env: {},
    git: (cwd, ...args) =>
      execFileSync("git", ["-c", "safe.directory=*", "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd,
        env: repos.env,
        encoding: "utf8",
      }),
    fresh: (name) => path.join(repos.tmp, `${name}-${k++}`),
    notes(files) {
      const dir = repos.fresh("ws");
      mkdirSync(path.join(dir, "memory"), { recursive: true });
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), text);
      }
      repos.git(dir, "init", "-q");
      repos.git(dir, "add", "-A");
      repos.git(dir, "commit", "-qm", "notes");
      return dir;
    },
  };
  beforeAll(async () => {
    repos.tmp = mkdtempSync(path.join(os.tmpdir(), prefix));
    repos.env = await ordinaryShellEnv(repos.tmp);
  });
  afterAll(() => {
    rmSync(repos.tmp, { recursive: true, force: true });
  });
  return repos;
}
