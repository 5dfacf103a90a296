import { execFileSync } from "node:child_process";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeMemoryText,
  decodeText,
  MAX_MEMORY_FILE_BYTES,
  memoryTextProblems,
  readMemoryText,
} from "./text-file.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-text-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("memory file text", () => {
  it("finds the lines with Latin-1 bytes and says where the first one is", () => {
    const bytes = Buffer.concat([
      Buffer.from("# Day\r\n\r\n- W @Zoë: ok\n- W: caf"),
      Buffer.from([0xe9]),
      Buffer.from(" cr\u00e8me\n- S: na"),
      Buffer.from([0xef, 0x76, 0x65]),
      Buffer.from("\n"),
    ]);
    const m = decodeMemoryText(bytes);
    expect(m.invalid).toEqual({ line: 4, byte: 0xe9, lines: [4, 5] });
    expect(m.text).toContain("caf\uFFFD");
    expect(memoryTextProblems(m)[0]).toEqual({
      line: 4,
      reason: expect.stringMatching(/^not valid UTF-8 \(byte 0xE9/),
    });
  });

  it("accepts any valid UTF-8, including a written U+FFFD, and refuses overlongs and surrogates", () => {
    expect(decodeMemoryText(Buffer.from("Zoë 张伟 😀 \uFFFD")).invalid).toBeUndefined();
    expect(decodeMemoryText(Buffer.from([0x61, 0xc0, 0xaf])).invalid?.byte).toBe(0xc0);
    expect(decodeMemoryText(Buffer.from([0x0a, 0xed, 0xa0, 0x80])).invalid?.line).toBe(2);
  });

  it("does not read a file over the limit (a sparse 2 GB file: nothing is read)", async () => {
    const big = path.join(dir, "2026-03-04.md");
    await writeFile(big, "# huge\n");
    await truncate(big, 2 * 1024 ** 3);
    const t = performance.now();
    const m = await readMemoryText(big);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(m).toEqual({ text: "", tooLarge: 2 * 1024 ** 3 });
    expect(memoryTextProblems(m)[0]!.reason).toMatch(/^file is 2147483648 bytes, over the 16777216-byte/);
    expect(MAX_MEMORY_FILE_BYTES).toBe(16 * 1024 * 1024);
    expect(execFileSync("du", ["-k", big], { encoding: "utf8" }).split("\t")[0]!.length).toBeLessThan(5); // still sparse
  });
});

describe("a file of zero bytes only (a crash or power loss while it was written)", () => {
  it("is said as such and gives no text; zero bytes inside real text are the text's own", () => {
    const m = decodeMemoryText(new Uint8Array(3000));
    expect(m).toEqual({ text: "", zeroed: 3000 });
    expect(memoryTextProblems(m)[0]!.reason).toMatch(/^holds only zero bytes \(3000 of them/);
    expect(decodeMemoryText(new Uint8Array(0))).toEqual({ text: "" });
    const tail = decodeMemoryText(Buffer.concat([Buffer.from("# Mon\n"), Buffer.alloc(8)]));
    expect(tail.zeroed).toBeUndefined();
    expect(tail.text.startsWith("# Mon\n")).toBe(true);
  });
});

describe("a log whose tail is zero bytes (a crash or power loss while it was appended to)", () => {
  it("reads the text before them and says, on the line where they start, that what was written there is gone", () => {
    const head = "# Mon\n\n## Retain\n- W @Zoë: took the late shift\n";
    const m = decodeMemoryText(Buffer.concat([Buffer.from(head), Buffer.alloc(4096)]));
    expect(m).toEqual({ text: head, zeroedTail: 4096 });
    expect(memoryTextProblems(m)).toEqual([
      { line: 5, reason: expect.stringMatching(/^ends in 4096 zero bytes \(what a crash or power loss leaves/) },
    ]);
  });
});

describe("a Git LFS pointer where the text should be", () => {
  it("is said as such and gives no text; a log that quotes a pointer is a log", () => {
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${"0a".repeat(32)}\nsize 2048\n`;
    const m = decodeMemoryText(Buffer.from(pointer));
    expect(m).toEqual({ text: "", lfsPointer: true });
    expect(memoryTextProblems(m)[0]!.reason).toMatch(/^is a Git LFS pointer/);
    expect(decodeMemoryText(Buffer.from(`# LFS notes\n\n${pointer}`)).lfsPointer).toBeUndefined();
  });
});

describe('a file saved as UTF-16 with its byte order mark (Notepad\'s "Unicode")', () => {
  const text = "# Mon\r\n\r\n## Retain\r\n- W @Zoë: café crème 😀\r\n";
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  const be = Buffer.from(Buffer.from(le).swap16());

  it("reads as the same text, little- or big-endian, with no problem said", () => {
    expect(decodeMemoryText(le)).toEqual({ text, utf16: "le" });
    expect(decodeMemoryText(be)).toEqual({ text, utf16: "be" });
    expect(memoryTextProblems(decodeMemoryText(le))).toEqual([]);
    expect(decodeText(be)).toBe(text);
  });

  it("marks the line of a lone surrogate or of a last byte cut in half, and reads the rest", () => {
    const lone = Buffer.concat([le.subarray(0, 2 + 2 * 10), Buffer.from([0x00, 0xd8]), le.subarray(2 + 2 * 10)]);
    const m = decodeMemoryText(lone);
    expect(m.utf16).toBe("le");
    expect(m.invalid).toEqual({ line: 3, byte: 0xd8, lines: [3] });
    expect(m.text).toContain("- W @Zoë: café crème 😀");
    expect(memoryTextProblems(m)[0]!.reason).toMatch(/^not valid UTF-16 \(byte 0xD8, 1 line/);
    // Cut in the middle of the emoji (a copy or a write stopped half-way).
    const cut = decodeMemoryText(le.subarray(0, le.length - 5));
    expect(cut.invalid?.lines).toEqual([4]);
  });

  it("UTF-32's mark (FF FE 00 00) is not taken for UTF-16", () => {
    const m = decodeMemoryText(Buffer.from([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]));
    expect(m.utf16).toBeUndefined();
    expect(m.invalid?.byte).toBe(0xff);
  });
});

describe('a file saved as Windows-1252 (an old Windows editor\'s "ANSI")', () => {
  // "Größe café naïve “quoted” it’s — 5 €" as Windows-1252 writes it.
  const ansi = Buffer.from([
    ...Buffer.from("# Tag\r\n- W @Zo"),
    0xeb,
    ...Buffer.from(": Gr"),
    0xf6,
    0xdf,
    ...Buffer.from("e caf"),
    0xe9,
    ...Buffer.from(" na"),
    0xef,
    ...Buffer.from("ve "),
    0x93,
    ...Buffer.from("quoted"),
    0x94,
    ...Buffer.from(" it"),
    0x92,
    ...Buffer.from("s "),
    0x97,
    ...Buffer.from(" 5 "),
    0x80,
    ...Buffer.from("\r\n"),
  ]);

  it("is read as Windows-1252, every line whole, and said to be so", () => {
    const m = decodeMemoryText(ansi);
    expect(m.text).toBe("# Tag\r\n- W @Zoë: Größe café naïve “quoted” it’s — 5 €\r\n");
    expect(m.windows1252).toBe(true);
    expect(m.invalid).toBeUndefined();
    expect(decodeText(ansi)).toBe(m.text);
    const problems = memoryTextProblems(m);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/^saved as Windows-1252 \("ANSI"\), not UTF-8: read as Windows-1252.*iconv/);
  });

  it("is not guessed for Shift-JIS, nor for UTF-8 with a stray byte, nor for a byte Windows-1252 has no letter for", () => {
    // "田中さんは東京の" in Shift-JIS: runs of high bytes no Western text has.
    const sjis = Buffer.from([0x2d, 0x20, 0x93, 0x63, 0x92, 0x86, 0x82, 0xb3, 0x82, 0xf1, 0x82, 0xcd, 0x93, 0x8c]);
    const mixed = Buffer.concat([Buffer.from("Zoë\ncaf"), Buffer.from([0xe9, 0x0a])]);
    const undefinedByte = Buffer.from([0x61, 0x81, 0x62, 0x0a]);
    for (const bytes of [sjis, mixed, undefinedByte]) {
      const m = decodeMemoryText(bytes);
      expect(m.windows1252).toBeUndefined();
      expect(m.invalid).toBeDefined();
    }
  });
});

describe("a run of zero bytes inside a log (a block lost in a crash while the file was rewritten)", () => {
  it("is said on its line with its length; a stray zero or two is the text's own", () => {
    const bytes = Buffer.from("# Mon\n- W @Ana: runs the club\n- W @Bo: fine\n");
    bytes.fill(0, 10, 30);
    const m = decodeMemoryText(bytes);
    expect(m.zeroedRun).toEqual({ line: 2, bytes: 20, lines: [2] });
    expect(memoryTextProblems(m)[0]).toMatchObject({ line: 2 });
    expect(memoryTextProblems(m)[0]!.reason).toMatch(/^holds 20 zero bytes where text was/);
    expect(decodeMemoryText(Buffer.from("a\0b\0\0c\n")).zeroedRun).toBeUndefined();
  });

  it("a stray few zero bytes amid the text are read around, and said on their first line", () => {
    const m = decodeMemoryText(Buffer.from("# Mon\n- W @Zoë: moved\0 to Zürich\n- W @Bo: likes\0\0\0 tea\n"));
    expect(m.text).toBe("# Mon\n- W @Zoë: moved to Zürich\n- W @Bo: likes tea\n");
    expect(m.zeroedRun).toBeUndefined();
    expect(memoryTextProblems(m)).toEqual([
      { line: 2, reason: expect.stringMatching(/^holds 4 zero bytes amid its text \(2 line\(s\)/) },
    ]);
    // A block lost in a crash keeps its zeros (its line is no fact); a stray zero elsewhere is still read around.
    const both = Buffer.from(`- W @Ana: ${"x".repeat(20)}\n- W @Bo: tea\0 at four\n`);
    both.fill(0, 10, 30);
    const read = decodeMemoryText(both);
    expect(read.zeroedRun).toEqual({ line: 1, bytes: 20, lines: [1] });
    expect(read.text.split("\n")[1]).toBe("- W @Bo: tea at four");
    // Zeros all through a file (UTF-16 saved without its mark) are no stray few: not read around.
    const noMark = decodeMemoryText(Buffer.from("- W @Bo: likes tea\n", "utf16le"));
    expect(noMark.strayZeros).toBeUndefined();
    expect(noMark.text).toContain("\0");
  });
});
