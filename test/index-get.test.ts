import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMemoryLines, MAX_GET_LINES } from "../src/index/index.js";
import { MembankError } from "../src/workspace/errors.js";
import type { Workspace } from "../src/workspace/workspace.js";
import { makeWorkspace } from "./index-support.js";

let w: Workspace;
let outside: string;

beforeAll(async () => {
  w = await makeWorkspace({
    "MEMORY.md": "one\ntwo\nthree\n",
    "memory/2026-03-10.md": "# Day\n\nline 3\nline 4\nline 5\n",
    "bank/entities/Peter.md": "# Peter\n",
    "bank/notes.txt": "not markdown\n",
    "memory/big.md": `${Array.from({ length: MAX_GET_LINES + 10 }, (_, i) => `l${i}`).join("\n")}\n`,
    "memory/wide.md": `${"x".repeat(300 * 1024)}\n`,
    "memory/sub/deep.md": "deep\n",
  });
  outside = await mkdtemp(path.join(tmpdir(), "membank-outside-"));
  writeFileSync(path.join(outside, "secret.md"), "secret\n");
  mkdirSync(path.join(outside, "dir"));
  writeFileSync(path.join(outside, "dir", "x.md"), "outside\n");
  symlinkSync(path.join(outside, "secret.md"), path.join(w.root, "memory", "link.md"));
  symlinkSync(path.join(outside, "dir"), path.join(w.root, "memory", "linkdir"));
  // A link that stays inside the workspace is still refused: memory_get reads only real files.
  symlinkSync(path.join(w.root, "MEMORY.md"), path.join(w.root, "memory", "inside-link.md"));
  mkdirSync(path.join(w.root, "memory", "folder.md"));
});

afterAll(() => {
  rmSync(w.root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("getMemoryLines", () => {
  it("reads a whole file, or a line range", async () => {
    expect(await getMemoryLines(w, "MEMORY.md")).toEqual({ path: "MEMORY.md", text: "one\ntwo\nthree" });
    expect(await getMemoryLines(w, "memory/2026-03-10.md", { from: 3, lines: 2 })).toEqual({
      path: "memory/2026-03-10.md",
      text: "line 3\nline 4",
    });
    expect((await getMemoryLines(w, "memory/2026-03-10.md", { from: 99 })).text).toBe("");
    expect((await getMemoryLines(w, "bank/entities/Peter.md")).text).toBe("# Peter");
    expect((await getMemoryLines(w, "memory/sub/deep.md")).text).toBe("deep");
    expect((await getMemoryLines(w, "memory/big.md", { from: 5, lines: 2 })).text).toBe("l4\nl5");
  });

  const refused: [string, string, { from?: number; lines?: number }?][] = [
    ["../outside.md", "leaves the workspace"],
    ["memory/../../x.md", "leaves the workspace"],
    ["memory/../MEMORY.md", "leaves the workspace"],
    ["/etc/passwd.md", "absolute"],
    ["C:\\x\\memory\\a.md", "absolute"],
    ["memory\\2026-03-10.md", "use / as the separator"],
    ["./MEMORY.md", "not a plain path"],
    ["memory//2026-03-10.md", "not a plain path"],
    ["bank/notes.txt", "not a Markdown"],
    ["README.md", "not a memory file"],
    ["other/file.md", "not a memory file"],
    ["memory/link.md", "symbolic link"],
    ["memory/inside-link.md", "symbolic link"],
    ["memory/linkdir/x.md", "memory/linkdir is a symbolic link"],
    ["memory/folder.md", "not a regular file"],
    ["memory/big.md", "read at most"],
    ["memory/2026-03-10.md", "at most 2000 lines", { lines: MAX_GET_LINES + 1 }],
    ["memory/2026-03-10.md", "from must be", { from: 0 }],
    ["memory/2026-03-10.md", "lines must be", { lines: 0 }],
    ["memory/wide.md", "bytes"],
    ["", "empty"],
  ];
  it.each(refused)("refuses %j (%s)", async (p, message, opts) => {
    const error = await getMemoryLines(w, p, opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MembankError);
    expect((error as MembankError).message).toContain(message);
    expect((error as MembankError).exitCode).toBe(2);
  });

  it("says clearly when a file does not exist", async () => {
    const error = await getMemoryLines(w, "memory/2099-01-01.md").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MembankError);
    expect((error as MembankError).message).toMatch(/memory\/2099-01-01.md does not exist/);
    expect((error as MembankError).exitCode).toBe(2);
    const folder = await getMemoryLines(w, "bank/nowhere/x.md").catch((e: unknown) => e);
    expect((folder as MembankError).message).toMatch(/bank\/nowhere does not exist/);
  });
});
