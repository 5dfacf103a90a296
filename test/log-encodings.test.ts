/**
 * Logs re-saved in another encoding than UTF-8, run through the real bin. A log an old Windows
 * editor saved as Windows-1252 ("ANSI") lost every line holding é, ü or ’ from the bank the
 * next night (each skipped with a diagnostic); a log in an encoding membank cannot tell
 * (Shift-JIS) must not silently take the facts it gave before out of the bank either.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const repos = notesRepos("membank-encodings-");
const { git } = repos;

/** Windows-1252 bytes of `text` (only the characters these tests use beyond Latin-1). */
function windows1252(text: string): Buffer {
  const extra: Record<string, number> = { "’": 0x92, "“": 0x93, "”": 0x94, "—": 0x97, "€": 0x80 };
  return Buffer.from([...text].map((c) => extra[c] ?? c.charCodeAt(0)));
}

const DAY =
  "Brunch at Zoë’s — too much coffee.\n\n## Retain\n- W @Zoë: moved to Zürich for the new job\n- W @Jürgen: runs the café on Rue Cléry\n- O(c=0.7) @Zoë: thinks the “new” office is too far out\n";

describe('a log an earlier night read, re-saved as Windows-1252 ("ANSI") by an old editor', () => {
  it("is read as the same text: the pages keep its facts, it is said once with how to convert it, its bytes are never rewritten", async () => {
    const dir = repos.notes({ "memory/2026-05-02.md": DAY });
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const zoe = path.join(dir, "bank/entities/Zoë.md");
    const before = readFileSync(zoe, "utf8");
    expect(before).toContain("moved to Zürich");
    const jurgen = readFileSync(path.join(dir, "bank/entities/Jürgen.md"), "utf8");
    const head = git(dir, "rev-parse", "HEAD");

    const log = path.join(dir, "memory/2026-05-02.md");
    const ansi = windows1252(DAY.replace(/\n/g, "\r\n"));
    writeFileSync(log, ansi);
    const second = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect([0, 3], second.stderr).toContain(second.code);
    expect(readFileSync(zoe, "utf8")).toBe(before);
    expect(readFileSync(path.join(dir, "bank/entities/Jürgen.md"), "utf8")).toBe(jurgen);
    expect(git(dir, "diff", "--stat", head.trim(), "HEAD", "--", "bank")).toBe("");
    const said = `${second.stdout}${second.stderr}`.split("\n").filter((l) => l.includes("Windows-1252"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("memory/2026-05-02.md:1: saved as Windows-1252");
    expect(said[0]).toContain("iconv");
    expect(readFileSync(log)).toEqual(ansi);

    const got = await runBin(
      ["get", "memory/2026-05-02.md", "--from", "4", "--lines", "1", "--workspace", dir],
      repos.env,
    );
    expect(got.stdout).toBe("- W @Zoë: moved to Zürich for the new job\n");
  }, 60_000);
});

describe("a log an earlier night read, re-saved in an encoding membank cannot tell (Shift-JIS)", () => {
  it.each([
    ["", false],
    [" (also after an upgrade dropped the record of what was read: the bank's citations say it)", true],
  ])(
    "stops the nightly naming the file, instead of taking the facts of its lines out of the bank%s",
    async (_, upgraded) => {
      const text =
        "## Retain\n- W @Tanaka: 田中さんは東京の大学で日本語を教えている\n- W @Mori: runs the Saturday go club\n";
      const dir = repos.notes({ "memory/2026-05-03.md": text });
      const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
      expect(first.code, first.stderr).toBe(0);
      const page = path.join(dir, "bank/entities/Tanaka.md");
      const before = readFileSync(page, "utf8");
      expect(before).toContain("田中さん");
      const head = git(dir, "rev-parse", "HEAD");
      // The same text in Shift-JIS (Python's 'shift_jis' codec).
      const sjis = Buffer.concat([
        Buffer.from("## Retain\n- W @Tanaka: "),
        Buffer.from([
          147, 99, 146, 134, 130, 179, 130, 241, 130, 205, 147, 140, 139, 158, 130, 204, 145, 229, 138, 119, 130, 197,
          147, 250, 150, 123, 140, 234, 130, 240, 139, 179, 130, 166, 130, 196, 130, 162, 130, 233,
        ]),
        Buffer.from("\n- W @Mori: runs the Saturday go club\n"),
      ]);
      writeFileSync(path.join(dir, "memory/2026-05-03.md"), sjis);
      if (upgraded) rmSync(path.join(dir, ".memory"), { recursive: true, force: true });
      const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/memory\/2026-05-03\.md:2: not valid UTF-8.*membank changed nothing/);
      expect(readFileSync(page, "utf8")).toBe(before);
      expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    },
    60_000,
  );
});

describe('MEMORY.md re-saved as UTF-16 (Notepad\'s "Unicode") or as Windows-1252 ("ANSI")', () => {
  it.each([
    ["UTF-16", (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])],
    ["Windows-1252", windows1252],
  ])(
    "%s: the pages keep what it says of each person; nothing is committed",
    async (_name, encode) => {
      const core = "# Core\n\nI keep an allotment with Zoë, plot 14. @Halima runs the seed swap.\n";
      const dir = repos.notes({
        "MEMORY.md": core,
        "memory/2026-05-05.md": "## Retain\n- W @Halima: swaps seeds every first Saturday\n",
      });
      const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
      expect(first.code, first.stderr).toBe(0);
      const page = path.join(dir, "bank/entities/Halima.md");
      const before = readFileSync(page, "utf8");
      expect(before).toContain("From MEMORY.md:");
      const head = git(dir, "rev-parse", "HEAD");
      writeFileSync(path.join(dir, "MEMORY.md"), encode(core.replace(/\n/g, "\r\n")));
      const second = await runBin(["run", "nightly", "--workspace", dir], repos.env);
      expect([0, 3], second.stderr).toContain(second.code);
      expect(readFileSync(page, "utf8")).toBe(before);
      expect(git(dir, "rev-parse", "HEAD")).toBe(head);
    },
    60_000,
  );
});

describe("a log an earlier night read, with a run of zero bytes in its middle (a crash while the file was rewritten)", () => {
  it("stops the nightly naming the line, instead of taking the facts there out of the bank", async () => {
    const text = "## Retain\n- W @Halima: runs the seed swap at the hall\n- W @Odile: took over the water rota\n";
    const dir = repos.notes({ "memory/2026-05-06.md": text });
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const page = path.join(dir, "bank/entities/Halima.md");
    const before = readFileSync(page, "utf8");
    const head = git(dir, "rev-parse", "HEAD");
    // The block holding Halima's line never reached the disk: zeros where its words were.
    const bytes = Buffer.from(text);
    const start = text.indexOf("runs the");
    bytes.fill(0, start, start + 20);
    writeFileSync(path.join(dir, "memory/2026-05-06.md"), bytes);
    const run = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/memory\/2026-05-06\.md:2: holds 20 zero bytes.*membank changed nothing/);
    expect(readFileSync(page, "utf8")).toBe(before);
    expect(git(dir, "rev-parse", "HEAD")).toBe(head);
  }, 60_000);
});
