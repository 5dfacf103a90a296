// The real bin run as an unprivileged user, for tests of files a user cannot read: root (as in
// CI containers) reads any file whatever its mode, so under root the bin runs as nobody.
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { type BinRun, collectRun, MEMBANK_BIN, runBin } from "../cli-bin.js";
import type { NotesRepos } from "./notes-repo.js";

/** The bin as an unprivileged user; under root, `dir` is first handed to that user. */
export function runAsUser(repos: NotesRepos, args: readonly string[], dir: string): Promise<BinRun> {
  if (process.getuid?.() !== 0) return runBin(args, repos.env);
  chownRecursive(dir, 65534, 65534);
  return collectRun(
    spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, MEMBANK_BIN, ...args], {
      env: { ...repos.env, HOME: repos.tmp, XDG_CACHE_HOME: path.join(repos.tmp, "cache-nobody") },
      stdio: "pipe",
    }),
  );
}

export function chownRecursive(dir: string, uid: number, gid: number): void {
  execFileSync("chown", ["-R", `${uid}:${gid}`, dir]);
}
