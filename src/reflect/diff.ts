/** The unified diff of a dry run: what membank would change, as `git diff` shows it. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runGit } from "../workspace/git.js";

/**
 * The unified diff between old and new texts of workspace files (`undefined` old = a new
 * file), computed by `git diff --no-index` over two temporary trees. Writes nothing in
 * the workspace.
 */
export async function unifiedDiff(changes: { path: string; before?: string; after: string }[]): Promise<string> {
  if (changes.length === 0) return "";
  const dir = await mkdtemp(path.join(tmpdir(), "membank-diff-"));
  try {
    for (const change of changes) {
      const after = path.join(dir, "new", change.path);
      await mkdir(path.dirname(after), { recursive: true });
      await writeFile(after, change.after);
      if (change.before !== undefined) {
        const before = path.join(dir, "old", change.path);
        await mkdir(path.dirname(before), { recursive: true });
        await writeFile(before, change.before);
      }
    }
    await mkdir(path.join(dir, "old"), { recursive: true });
    // Exit code 1 means "differences found": the normal case here. The prefixes are said, so a
    // user's diff.noprefix or diff.mnemonicPrefix does not change the paths read below.
    const res = await runGit(
      ["diff", "--no-index", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "old", "new"],
      { cwd: dir, okCodes: [1] },
    );
    // A new file is `a/new/x b/new/x`, a changed one `a/old/x b/new/x`: both read `a/x b/x`.
    return res.stdout
      .split("\n")
      .map((line) =>
        /^(diff --git |--- |\+\+\+ )/.test(line)
          ? line
              .replace(/^(diff --git a\/|--- a\/|\+\+\+ b\/)(?:old|new)\//, "$1")
              .replace(/^(diff --git .*? b\/)(?:old|new)\//, "$1")
          : line,
      )
      .join("\n");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
