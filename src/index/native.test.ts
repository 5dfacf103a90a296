import { describe, expect, it } from "vitest";
import { MembankError } from "../workspace/errors.js";
import { nativeAdvice, nativeMismatch } from "./native.js";

// Verbatim from Node v24.21.0 loading a better-sqlite3 built by Node 20 (pnpm install).
const PNPM_MESSAGE = `The module '/home/ana/src/membank/node_modules/.pnpm/better-sqlite3@12.11.1/node_modules/better-sqlite3/build/Release/better_sqlite3.node'
was compiled against a different Node.js version using
NODE_MODULE_VERSION 115. This version of Node.js requires
NODE_MODULE_VERSION 137. Please try re-compiling or re-installing
the module (for instance, using \`npm rebuild\` or \`npm install\`).`;

function dlopenError(message: string): Error {
  return Object.assign(new Error(message), { code: "ERR_DLOPEN_FAILED" });
}

const NODE24 = { version: "v24.21.0", abi: "137", execPath: "/opt/openclaw/node/bin/node" };

describe("nativeMismatch", () => {
  it("reads the module and both ABI versions from Node's dlopen error", () => {
    expect(nativeMismatch(dlopenError(PNPM_MESSAGE))).toEqual({
      module:
        "/home/ana/src/membank/node_modules/.pnpm/better-sqlite3@12.11.1/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
      builtFor: "115",
      needs: "137",
    });
  });

  it("finds it under a wrapper's cause", () => {
    const wrapped = new MembankError("cannot open the index", { cause: dlopenError(PNPM_MESSAGE) });
    expect(nativeMismatch(wrapped)?.builtFor).toBe("115");
  });

  it("knows the other ways a foreign binary fails to load", () => {
    const m = nativeMismatch(
      new Error(
        "Module did not self-register: '/usr/lib/node_modules/membank/node_modules/better-sqlite3/build/Release/better_sqlite3.node'.",
      ),
    );
    expect(m?.module).toBe(
      "/usr/lib/node_modules/membank/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
    );
    expect(m?.builtFor).toBeUndefined();
    expect(nativeMismatch(new Error("/x/better_sqlite3.node: invalid ELF header"))).toBeDefined();
  });

  it("leaves other errors alone", () => {
    expect(nativeMismatch(new Error("ENOENT: no such file or directory, open 'memory/2026-01-01.md'"))).toBeUndefined();
    expect(
      nativeMismatch(Object.assign(new Error("database disk image is malformed"), { code: "SQLITE_CORRUPT" })),
    ).toBeUndefined();
    expect(nativeMismatch(new Error("Cannot find module 'better-sqlite3'"))).toBeUndefined();
    expect(nativeMismatch(undefined)).toBeUndefined();
  });
});

describe("nativeAdvice", () => {
  it("names both Nodes and the rebuild to run with the node in use, in the pnpm project", () => {
    const line = nativeAdvice(nativeMismatch(dlopenError(PNPM_MESSAGE))!, NODE24);
    expect(line).not.toContain("\n");
    expect(line).toContain("NODE_MODULE_VERSION 115 (Node 20)");
    expect(line).toContain("Node v24.21.0 (NODE_MODULE_VERSION 137, /opt/openclaw/node/bin/node)");
    expect(line).toContain(
      'cd "/home/ana/src/membank" && PATH="/opt/openclaw/node/bin":"$PATH" pnpm rebuild better-sqlite3',
    );
  });

  it("says npm for an npm (global) install, in the package's folder", () => {
    const line = nativeAdvice(
      { module: "/usr/lib/node_modules/membank/node_modules/better-sqlite3/build/Release/better_sqlite3.node" },
      NODE24,
    );
    expect(line).toContain(
      'cd "/usr/lib/node_modules/membank" && PATH="/opt/openclaw/node/bin":"$PATH" npm rebuild better-sqlite3',
    );
    expect(line).toContain("built for another Node.js");
  });
});
