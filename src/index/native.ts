import path from "node:path";
import { MembankError } from "../workspace/errors.js";

/** The Node.js that runs membank, as the advice needs it. */
export interface NodeRuntime {
  /** `process.version`, e.g. v24.3.0. */
  version: string;
  /** `process.versions.modules`: the NODE_MODULE_VERSION it loads. */
  abi: string;
  /** `process.execPath`. */
  execPath: string;
}

/** A native SQLite binding that this Node cannot load. */
export interface NativeMismatch {
  /** The `.node` file, when the error names it. */
  module?: string;
  /** NODE_MODULE_VERSION it was built for, and the one this Node needs (when the error says). */
  builtFor?: string;
  needs?: string;
}

/** NODE_MODULE_VERSION -> Node.js major, for a readable message (nodejs.org/en/about/previous-releases). */
const NODE_OF_ABI: Record<string, string> = {
  "108": "18",
  "115": "20",
  "120": "21",
  "127": "22",
  "131": "23",
  "137": "24",
  "141": "25",
};

const VERSIONS = /NODE_MODULE_VERSION\s+(\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION\s+(\d+)/;
const MODULE = /(?:The module|Cannot load|dlopen)\s*'([^']+\.node)'|'([^']+better_sqlite3\.node)'/;

/**
 * Is this error a native SQLite binding built for another Node (or another platform)?
 * Node's dlopen says "was compiled against a different Node.js version using
 * NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 137"
 * (ERR_DLOPEN_FAILED); older or odder mismatches say "Module did not self-register" or
 * "invalid ELF header". Follows `cause` chains. Pure.
 */
export function nativeMismatch(error: unknown): NativeMismatch | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as Error).message ?? e);
    const versions = VERSIONS.exec(message);
    const isMismatch =
      versions !== null ||
      (/\.node\b/.test(message) &&
        /did not self-register|invalid ELF header|wrong ELF class|Exec format error|was compiled against/.test(
          message,
        ));
    if (!isMismatch) continue;
    const m = MODULE.exec(message);
    const out: NativeMismatch = {};
    const module = m?.[1] ?? m?.[2];
    if (module !== undefined) out.module = module;
    if (versions) {
      out.builtFor = versions[1]!;
      out.needs = versions[2]!;
    }
    return out;
  }
  return undefined;
}

/** Where to run the rebuild and with which package manager, from the binding's path. */
function installOf(module: string | undefined): { root?: string; tool: "pnpm" | "npm" } {
  if (module === undefined) return { tool: "npm" };
  const p = module.split(path.sep).join("/");
  const pnpm = p.indexOf("/node_modules/.pnpm/");
  if (pnpm >= 0) return { root: p.slice(0, pnpm), tool: "pnpm" };
  const npm = p.lastIndexOf("/node_modules/better-sqlite3/");
  return npm >= 0 ? { root: p.slice(0, npm), tool: "npm" } : { tool: "npm" };
}

const nodeName = (abi: string | undefined) =>
  abi === undefined
    ? "another Node.js"
    : `NODE_MODULE_VERSION ${abi}${NODE_OF_ABI[abi] ? ` (Node ${NODE_OF_ABI[abi]})` : ""}`;

/**
 * The one line a user reads: what is wrong and the command that fixes it, run with the
 * node in use (its folder first on PATH, so node-gyp and prebuild-install build for it). Pure.
 */
export function nativeAdvice(m: NativeMismatch, node: NodeRuntime): string {
  const { root, tool } = installOf(m.module);
  const bin = path.dirname(node.execPath);
  const cd = root !== undefined ? `cd ${JSON.stringify(root)} && ` : "";
  const run = `${cd}PATH=${JSON.stringify(bin)}:"$PATH" ${tool} rebuild better-sqlite3`;
  const alt = tool === "pnpm" ? "npm" : "pnpm";
  return (
    `better-sqlite3 was built for ${nodeName(m.builtFor)}, but membank runs on Node ${node.version} ` +
    `(NODE_MODULE_VERSION ${m.needs ?? node.abi}, ${node.execPath}); rebuild it for this node: ${run}` +
    ` (or ${alt} rebuild better-sqlite3), or run membank with the node it was installed with`
  );
}

export function currentRuntime(): NodeRuntime {
  return { version: process.version, abi: process.versions.modules, execPath: process.execPath };
}

/** The error as a one-line MembankError when it is a binding mismatch, else undefined. */
export function nativeError(error: unknown): MembankError | undefined {
  const m = nativeMismatch(error);
  return m ? new MembankError(nativeAdvice(m, currentRuntime()), { code: "ENODEABI", cause: error }) : undefined;
}
