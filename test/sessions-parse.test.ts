import { readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DigestEntry, mergeEntries, parseDigest, renderDigest } from "../src/sessions/digest.js";
import {
  contentText,
  normalizeText,
  parseSessionChunk,
  parseSessionLine,
  parseTimestamp,
} from "../src/sessions/parse.js";
import { redactSecrets } from "../src/sessions/redact.js";
import { createClock } from "../src/workspace/clock.js";

const FIX = path.resolve(import.meta.dirname, "../fixtures/sessions");
const utc = createClock("UTC");
const ctx = {
  source: "main/sessions/s-alpha.jsonl",
  sessionId: "s-alpha",
  agent: "main",
  displayPath: "s-alpha.jsonl",
  firstLine: 1,
};

describe("session record shapes", () => {
  it("reads timestamps as seconds, milliseconds, numeric strings and ISO strings", () => {
    expect(parseTimestamp(1772614806)).toBe(1772614806000);
    expect(parseTimestamp(1772614806123)).toBe(1772614806123);
    expect(parseTimestamp("1772614806")).toBe(1772614806000);
    expect(parseTimestamp("2026-03-04T09:00:06Z")).toBe(1772614806000);
    expect(parseTimestamp("2026-03-04T10:00:06+01:00")).toBe(1772614806000);
    expect(parseTimestamp("yesterday")).toBeUndefined();
    expect(parseTimestamp(null)).toBeUndefined();
    expect(parseTimestamp(-5)).toBeUndefined();
  });

  it("takes string content and the text blocks of array content only", () => {
    expect(contentText("hi")).toBe("hi");
    expect(
      contentText([
        { type: "thinking", thinking: "x" },
        { type: "text", text: "a" },
        { type: "tool_use", name: "t" },
        { type: "text", text: "b" },
        { type: "image" },
      ]),
    ).toBe("a\n\nb");
    expect(contentText({ text: "not an array" })).toBe("");
  });

  it("keeps user and assistant messages, ignores other roles and record types, reports bad lines", () => {
    const line = (o: unknown) => parseSessionLine(JSON.stringify(o), 7, ctx);
    const user = line({ type: "message", timestamp: 1772614806, message: { role: "user", content: "hello" } });
    expect(user).toMatchObject({
      kind: "message",
      message: { role: "user", text: "hello", line: 7, ts: 1772614806000, agent: "main" },
    });
    // timestamp on the message instead of the record
    expect(
      line({ type: "message", message: { role: "assistant", content: "ok", timestamp: "2026-03-04T09:00:06Z" } }),
    ).toMatchObject({
      kind: "message",
      message: { ts: 1772614806000 },
    });
    expect(line({ type: "message", timestamp: 1, message: { role: "toolResult", content: "x" } }).kind).toBe("ignored");
    expect(line({ type: "message", message: { role: "system", content: "x" } }).kind).toBe("ignored");
    expect(line({ type: "session", id: "s", timestamp: "2026-03-04T08:00:00Z" })).toEqual({
      kind: "ignored",
      ts: Date.parse("2026-03-04T08:00:00Z"),
    });
    expect(
      line({ type: "message", timestamp: 5e9, message: { role: "assistant", content: [{ type: "tool_use" }] } }).kind,
    ).toBe("ignored");
    const bad = parseSessionLine("{not json", 3, ctx);
    expect(bad).toMatchObject({ kind: "diagnostic", diagnostic: { path: "s-alpha.jsonl", line: 3 } });
    expect((bad as { diagnostic: { reason: string } }).diagnostic.reason).toMatch(/not valid JSON/);
    expect(parseSessionLine("[1,2]", 4, ctx)).toMatchObject({
      kind: "diagnostic",
      diagnostic: { reason: "not a JSON object" },
    });
    expect(parseSessionLine('{"type":"message"}', 5, ctx)).toMatchObject({
      kind: "diagnostic",
      diagnostic: { line: 5 },
    });
    expect(parseSessionLine('{"type":"message","message":{"role":"user","content":"no time"}}', 6, ctx)).toMatchObject({
      kind: "diagnostic",
      diagnostic: { reason: expect.stringMatching(/no timestamp/) },
    });
    expect(parseSessionLine("   ", 8, ctx)).toEqual({ kind: "ignored" });
  });

  it("parses the fixture transcript: every shape, bad lines reported with file:line", async () => {
    const text = await readFile(path.join(FIX, "agents/main/sessions/s-alpha.jsonl"), "utf8");
    const chunk = parseSessionChunk(text, ctx, utc.day);
    expect(chunk.messages.map((m) => [m.line, m.role])).toEqual([
      [2, "user"],
      [3, "assistant"],
      [6, "user"],
      [8, "assistant"],
      [10, "user"], // no timestamp: the previous one
      [12, "user"],
      [13, "assistant"],
    ]);
    // no timestamp of its own: the last one seen before it (the ignored system message's)
    expect(chunk.messages[4]?.ts).toBe(Date.parse("2026-03-04T09:03:00Z"));
    expect(chunk.messages.every((m) => !m.text.includes("tool output") && !m.text.includes("system prompt"))).toBe(
      true,
    );
    expect(chunk.diagnostics.map((d) => d.line)).toEqual([7, 11, 15]);
    expect(chunk.lines).toBe(15);
    expect(chunk.bytes).toBe(Buffer.byteLength(text));
  });

  it("stops before the first message of the stop day and never consumes a partial last line", async () => {
    const text = await readFile(path.join(FIX, "agents/main/sessions/s-alpha.jsonl"), "utf8");
    const chunk = parseSessionChunk(text, ctx, utc.day, "2026-03-05");
    expect(chunk.messages.map((m) => m.line)).toEqual([2, 3, 6, 8, 10]);
    expect(chunk.lines).toBe(11);
    expect(chunk.deferred).toBe(2);
    const partial = parseSessionChunk(
      '{"type":"message","timestamp":1,"message":{"role":"user","content":"a"}}\n{"type":"mess',
      ctx,
      utc.day,
    );
    expect(chunk.lines).toBeGreaterThan(0);
    expect(partial.lines).toBe(1);
    expect(partial.diagnostics).toEqual([]);
  });

  it("resumes at a later line with the carried timestamp", () => {
    const c = parseSessionChunk(
      '{"type":"message","message":{"role":"user","content":"later"}}\n',
      { ...ctx, firstLine: 40, lastTs: 1772614806000 },
      utc.day,
    );
    expect(c.messages[0]).toMatchObject({ line: 40, ts: 1772614806000 });
  });

  it("never throws on arbitrary lines (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ type: "message", message: v })),
        ),
        (s) => {
          const out = parseSessionLine(s, 1, ctx, 0);
          expect(["message", "ignored", "diagnostic"]).toContain(out.kind);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("redaction", () => {
  it("replaces common secrets and keeps the sentence", () => {
    const cases: [string, string][] = [
      ["key sk-proj-abcdefghijklmnop1234567890 ok", "key [REDACTED:api-key] ok"],
      ["anthropic sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAA", "anthropic [REDACTED:api-key]"],
      ["aws AKIAABCDEFGHIJKLMNOP.", "aws [REDACTED:aws-key]."],
      ["gh ghp_abcdefghijklmnopqrstuvwxyz0123456789", "gh [REDACTED:github-token]"],
      ["Authorization: Bearer abc.def-ghi_jkl012345", "Authorization: Bearer [REDACTED:token]"],
      ["db password=hunter2, fine", "db password=[REDACTED:secret], fine"],
      ['{"api_key": "xyz123456"}', '{"api_key": "[REDACTED:secret]"}'],
      ["url postgres://app:s3cret@db:5432/x", "url postgres://app:[REDACTED:secret]@db:5432/x"],
      ["-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY----- end", "[REDACTED:private-key] end"],
      ["slack xoxb-1234567890-abcdef", "slack [REDACTED:slack-token]"],
    ];
    for (const [input, want] of cases) expect(redactSecrets(input).text).toBe(want);
    expect(redactSecrets("Nothing secret about the sky-high costs or a task-list.").count).toBe(0);
  });

  it("is idempotent and leaves no secret behind (property)", () => {
    const secret = fc.oneof(
      fc.stringMatching(/^sk-[A-Za-z0-9]{20,30}$/),
      fc.stringMatching(/^AKIA[0-9A-Z]{16}$/),
      fc.stringMatching(/^ghp_[A-Za-z0-9]{36}$/),
      fc.stringMatching(/^[a-z0-9]{8,20}$/).map((s) => `password=${s}`),
      fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((s) => `Bearer ${s}`),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(secret, fc.stringMatching(/^[a-z ]{0,12}$/)), { maxLength: 8 }), (parts) => {
        const once = redactSecrets(parts.join(" "));
        expect(redactSecrets(once.text)).toEqual({ text: once.text, count: 0 });
        expect(once.text).not.toMatch(
          /sk-[A-Za-z0-9]{20}|AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}|password=(?!\[REDACTED)|Bearer (?!\[REDACTED)\w/,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("digest", () => {
  const entry = (o: Partial<DigestEntry>): DigestEntry => ({
    source: "a.jsonl",
    sessionId: "a",
    line: 1,
    role: "user",
    time: "09:00:00",
    text: "hi",
    ...o,
  });

  it("renders sessions by first time, messages by line, and parses back exactly", () => {
    const entries = [
      entry({ line: 3, role: "assistant", time: "09:00:05", text: "## not a heading\n> quoted\n\nsecond para" }),
      entry({ line: 1 }),
      entry({
        source: "main/sessions/b.jsonl",
        sessionId: "b",
        agent: "main",
        line: 2,
        time: "08:00:00",
        text: "### 09:00:00 user · L9",
      }),
    ];
    const text = renderDigest("2026-03-04", entries, "UTC");
    expect(text.indexOf("Session `b`")).toBeLessThan(text.indexOf("Session `a`"));
    expect(text).toContain("> ### 09:00:00 user · L9");
    const back = parseDigest(text);
    expect(renderDigest("2026-03-04", back, "UTC")).toBe(text);
    expect(back).toHaveLength(3);
    expect(back.find((e) => e.line === 3)?.text).toBe("## not a heading\n> quoted\n\nsecond para");
  });

  it("merges by (file, line): same input in any order and repeated gives the same bytes (property)", () => {
    const arb = fc.array(
      fc.record({
        source: fc.constantFrom("a.jsonl", "main/sessions/b.jsonl", "c.jsonl"),
        line: fc.integer({ min: 1, max: 50 }),
        role: fc.constantFrom("user" as const, "assistant" as const),
        time: fc.constantFrom("00:00:01", "12:30:00", "23:59:59"),
        text: fc
          .string({ minLength: 1 })
          .map(normalizeText)
          .filter((t) => t !== ""),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const entries = raw.map((e) => ({ ...e, sessionId: e.source.replace(/^.*\//, "").replace(".jsonl", "") }));
        const once = renderDigest("2026-01-01", mergeEntries([], entries), "UTC");
        const twice = renderDigest("2026-01-01", mergeEntries(parseDigest(once), [...entries].reverse()), "UTC");
        expect(twice).toBe(once);
        expect(renderDigest("2026-01-01", parseDigest(once), "UTC")).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});
