import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFilesAtomic } from "./atomic.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), "membank-atomic-"));
  dirs.push(d);
  return d;
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe("writeFilesAtomic (a nightly's pages in one batch)", () => {
  it("writes every file, new and replaced, in nested folders, and leaves no temp file", async () => {
    const root = tmp();
    writeFileSync(path.join(root, "opinions.md"), "# Opinions\n\nold\n");
    const files = [
      { file: path.join(root, "opinions.md"), content: "# Opinions\n\nnew\n" },
      ...Array.from({ length: 40 }, (_, i) => ({
        file: path.join(root, "entities", `Person-${i}.md`),
        content: `# Person ${i}\n`,
      })),
    ];
    await writeFilesAtomic(files);
    for (const f of files) expect(readFileSync(f.file, "utf8")).toBe(f.content);
    expect(tree(root).filter((p) => p.endsWith(".tmp"))).toEqual([]);
  });

  it("without fsyncs (durable: false) still replaces each file whole and keeps the file's mode", async () => {
    const root = tmp();
    const file = path.join(root, "runs", "2026-01-02T06-00-00-000Z.json");
    await writeFilesAtomic([{ file, content: '{"status":"running"}\n' }], { durable: false });
    chmodSync(file, 0o640);
    await writeFilesAtomic([{ file, content: '{"status":"done"}\n' }], { durable: false });
    expect(readFileSync(file, "utf8")).toBe('{"status":"done"}\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(tree(root)).toEqual(["runs", "runs/2026-01-02T06-00-00-000Z.json"]);
  });

  it("changes no file when one of them cannot be written, and names that one", async () => {
    const root = tmp();
    writeFileSync(path.join(root, "Mara.md"), "# Mara\n\nkept\n");
    // A file where a folder should be: the page under it cannot be written.
    writeFileSync(path.join(root, "entities"), "not a folder\n");
    const before = tree(root);
    await expect(
      writeFilesAtomic([
        { file: path.join(root, "Mara.md"), content: "# Mara\n\nreplaced\n" },
        { file: path.join(root, "entities", "Tomasz.md"), content: "# Tomasz\n" },
      ]),
    ).rejects.toMatchObject({ path: expect.stringContaining("entities") });
    expect(readFileSync(path.join(root, "Mara.md"), "utf8")).toBe("# Mara\n\nkept\n");
    expect(tree(root)).toEqual(before);
  });
});
