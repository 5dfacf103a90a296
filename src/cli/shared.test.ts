import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MembankError } from "../workspace/errors.js";
import { reportError } from "./shared.js";

function printed(error: unknown): { code: number; text: string } {
  let text = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    text += String(chunk);
    return true;
  });
  try {
    return { code: reportError(error), text };
  } finally {
    spy.mockRestore();
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("reportError", () => {
  it("prints a real file-system failure as one line naming the path, without a stack", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "membank-report-"));
    dirs.push(dir);
    let caught: unknown;
    try {
      writeFileSync(dir, "x");
    } catch (error) {
      caught = error;
    }
    const out = printed(caught);
    expect(out.code).toBe(1);
    expect(out.text).toBe(
      `membank: ${dir} is a folder where membank expects a file (EISDIR): move it away and run again\n`,
    );
    const file = path.join(dir, ".memory");
    writeFileSync(file, "junk\n");
    let mkdirError: unknown;
    try {
      mkdirSync(file, { recursive: true });
    } catch (error) {
      mkdirError = error;
    }
    expect(printed(mkdirError).text).toBe(
      `membank: cannot create the folder ${file}: a file of that name is in the way (EEXIST); move it away and run again\n`,
    );
    const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
      path: path.join(dir, "bank/opinions.md"),
    });
    expect(printed(full).text).toMatch(
      /^membank: no space left on the disk while writing .*bank\/opinions\.md \(ENOSPC\): free some space.*\n$/,
    );
  });

  it("prints a MembankError's message and exit code, a git failure as one line, and only a bug with a stack", () => {
    expect(printed(new MembankError("Config x.json is not valid JSON", { exitCode: 2 }))).toEqual({
      code: 2,
      text: "membank: Config x.json is not valid JSON\n",
    });
    // git failures come from the git adapter as MembankErrors: one line, git's first line in it.
    expect(printed(new MembankError("git commit-tree failed in /w: fatal: bad object", { code: "EGIT" }))).toEqual({
      code: 1,
      text: "membank: git commit-tree failed in /w: fatal: bad object\n",
    });
    expect(printed(new TypeError("x is undefined")).text).toMatch(
      /unexpected error: TypeError: x is undefined\n\s+at /,
    );
  });
});
