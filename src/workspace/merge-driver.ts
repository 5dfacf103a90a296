/**
 * membank's git merge driver for bank pages (issue 15): registered per clone in git's
 * config (merge.membank.driver, merge.membank.name) and for `bank/**` in the workspace's
 * .gitattributes (shared through the remote; a clone without the config merges those
 * pages with git's own text merge, which reflect then recovers from).
 */
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { MembankError } from "./errors.js";
import { repoInfo, runGit } from "./git.js";

export const DRIVER = "membank";
export const ATTRIBUTE_LINE = `bank/** merge=${DRIVER}`;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command git runs (through sh): node, membank's CLI, and the workspace (git substitutes
 * %O %A %B %P %L, quoted). When that node or CLI is gone (nvm removed the version, membank was
 * reinstalled elsewhere), git's own text merge with conflict markers: a driver that cannot start
 * leaves the page as it was on this machine, and the other machine's edits vanish from it
 * unsaid once the user commits. reflect rebuilds regions from markers (see conflicts.ts).
 */
export function driverCommand(cli: string, root: string): string {
  const node = quote(process.execPath);
  const script = quote(cli);
  return (
    `if [ -x ${node} ] && [ -f ${script} ]; then exec ${node} ${script} merge-driver --workspace ${quote(root)} %O %A %B %P; fi; ` +
    "exec git merge-file -L ours -L base -L theirs --marker-size=%L %A %O %B"
  );
}

export interface DriverStatus {
  /** The git config entry of this clone, when set. */
  command?: string;
  /** .gitattributes sends bank pages to the driver. */
  attributes: boolean;
}

export async function mergeDriverStatus(root: string): Promise<DriverStatus | undefined> {
  const repo = await repoInfo(root);
  if (!repo) return undefined;
  const cmd = await runGit(["config", "--get", `merge.${DRIVER}.driver`], { cwd: root, okCodes: [1] });
  const attr = await runGit(["check-attr", "merge", "--", "bank/opinions.md"], { cwd: root });
  const status: DriverStatus = { attributes: attr.stdout.trim().endsWith(`: merge: ${DRIVER}`) };
  if (cmd.code === 0 && cmd.stdout.trim() !== "") status.command = cmd.stdout.trim();
  return status;
}

export interface DriverInstall {
  /** What changed: `git config merge.membank.*`, `.gitattributes`. */
  changed: string[];
}

/** Register the driver in this clone's git config and bank/** in .gitattributes. Idempotent. */
export async function installMergeDriver(root: string, cli: string): Promise<DriverInstall> {
  const repo = await repoInfo(root);
  if (!repo) {
    throw new MembankError(`${root} is not in a git repository: run \`git init\` (or clone your bank) first`, {
      code: "ENOTGIT",
    });
  }
  const changed: string[] = [];
  const want = driverCommand(path.resolve(cli), path.resolve(root));
  const status = await mergeDriverStatus(root);
  if (status?.command !== want) {
    await runGit(["config", `merge.${DRIVER}.name`, "membank: merge bank pages, regenerate their regions"], {
      cwd: root,
    });
    await runGit(["config", `merge.${DRIVER}.driver`, want], { cwd: root });
    changed.push(`git config merge.${DRIVER}.driver`);
  }
  const file = path.join(root, ".gitattributes");
  const text = existsSync(file) ? await readFile(file, "utf8") : undefined;
  if (!text?.split(/\r?\n/).some((l) => l.trim() === ATTRIBUTE_LINE)) {
    const sep = text === undefined || text === "" || text.endsWith("\n") ? "" : "\n";
    const head =
      text === undefined ? "# bank pages merge with membank's driver (membank merge-driver --install)\n" : "";
    await appendFile(file, `${sep}${head}${ATTRIBUTE_LINE}\n`);
    changed.push(".gitattributes");
  }
  return { changed };
}
