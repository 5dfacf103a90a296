// One chat, counted once. A realistic OpenClaw 2026.9 day without an LLM: the agent's daily log,
// the session-memory hook's copy of a chat on /new (memory/YYYY-MM-DD-HHMM.md), membank's digest
// of OpenClaw's session store holding the same chat whole (memory/YYYY-MM-DD-sessions.md), and a
// second /new copy of a chat no digest holds (another agent's store membank does not read).
// Expectations written before the first run: the copy of a digested chat adds no name and no
// cited line (its chat is the digest's), the undigested copy still counts, night by night as in
// one full run; recall gives the chat's line once, from the digest.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  answers,
  applyChange,
  filesOf,
  nightAfter,
  nightly,
  runScenario,
  tempWorkspace,
} from "./support/differential.js";
import { CHAT, FILES } from "./support/openclaw-day.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, FILES[k]!]));
const ALL = Object.keys(FILES);
const QUESTIONS = ["table Cervejaria Ramiro", "Marisol fence"];

/** Every bank/ page's text by path. */
const bankOf = (dir: string) => filesOf(dir, ["bank"]);
const cited = (bank: Map<string, string>, log: string) =>
  [...bank].filter(([, text]) => text.includes(`[${log}#L`)).map(([p]) => p);

describe("a /new copy of a chat a digest holds counts as that one chat", () => {
  it("names and cited lines: the digest's, once; the copy no digest holds still counts", async () => {
    const dir = tempWorkspace(dirs, "newcopy");
    applyChange(dir, FILES);
    await nightly(dir, nightAfter("2026-09-15"));
    const bank = bankOf(dir);
    // Lisbon is said once, in one chat: no page (it had one when the copy and the digest were two logs).
    expect([...bank.keys()].filter((p) => /Lisbon|Ramiro|Cervejaria/.test(p))).toEqual([]);
    // No page cites the copy of the digested chat; its lines are cited from the digest.
    expect(cited(bank, "memory/2026-09-14-1432.md")).toEqual([]);
    const marisol = bank.get("bank/entities/Marisol.md") ?? "";
    expect(marisol).toContain("[memory/2026-09-14-sessions.md#L");
    expect(marisol).toContain("[memory/2026-09-15.md#L3]");
    expect(bank.get("bank/entities/Ife.md")).toContain("[memory/2026-09-14-sessions.md#L");
    // The chat no digest holds is read from its copy: Biscuit is in it and in the next day's log.
    expect(bank.get("bank/entities/Biscuit.md")).toContain("[memory/2026-09-14-vet-appointment.md#L");
  }, 120_000);

  it("a digest that left some of the chat out over its daily limit does not hold it whole: the copy counts", async () => {
    const dir = tempWorkspace(dirs, "newcopy-partial");
    const note = `\n_… 40 messages (530 KB, L6–L45) of session \`${CHAT}\` left out: over the daily digest limit of 512 KB_\n`;
    applyChange(dir, { ...FILES, "memory/2026-09-14-sessions.md": FILES["memory/2026-09-14-sessions.md"] + note });
    await nightly(dir, nightAfter("2026-09-15"));
    expect(cited(bankOf(dir), "memory/2026-09-14-1432.md")).not.toEqual([]);
  }, 120_000);

  it("recall gives the chat's line once, cited from the digest; the chat no digest holds from its copy", async () => {
    const dir = tempWorkspace(dirs, "newcopy-recall");
    applyChange(dir, FILES);
    await nightly(dir, nightAfter("2026-09-15"));
    const [table, marisol] = await answers(dir, QUESTIONS, nightAfter("2026-09-15"));
    const sources = (a: string) =>
      (JSON.parse(a.slice(a.indexOf(" => ") + 4)) as { source: string }[]).map((r) => r.source);
    // The user's line and the reply, one result (they were three: the copy's two lines and the digest's each).
    expect(sources(table!)).toEqual(["memory/2026-09-14-sessions.md#L11-L15"]);
    expect(sources(marisol!).filter((s) => s.startsWith("memory/2026-09-14-"))).toEqual([
      "memory/2026-09-14-sessions.md#L19-L19",
    ]);
    const [vet] = await answers(dir, ["Biscuit Dr Marsh vet"], nightAfter("2026-09-15"));
    expect(sources(vet!)[0]).toMatch(/^memory\/2026-09-14-vet-appointment\.md#L/);
  }, 120_000);

  it("the digest a night after the copy: night by night equals one full run", async () => {
    const out = await runScenario(dirs, {
      name: "digest-late",
      nights: [
        {
          now: nightAfter("2026-09-14"),
          change: pick(ALL.filter((k) => k !== "memory/2026-09-14-sessions.md" && k !== "memory/2026-09-15.md")),
        },
        { now: nightAfter("2026-09-15"), change: pick(["memory/2026-09-14-sessions.md", "memory/2026-09-15.md"]) },
      ],
      questions: QUESTIONS,
    });
    expect(out.differences).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    expect(out.secondRun).toEqual([]);
    expect(cited(bankOf(out.lived), "memory/2026-09-14-1432.md")).toEqual([]);
  }, 240_000);

  it("the copy a night after the digest, written the next morning (an idle reset): night by night equals one full run", async () => {
    const late = FILES["memory/2026-09-14-1432.md"]!.replace("2026-09-14 14:32:07", "2026-09-15 08:12:40");
    const out = await runScenario(dirs, {
      name: "copy-late",
      nights: [
        {
          now: nightAfter("2026-09-14"),
          change: pick(ALL.filter((k) => k !== "memory/2026-09-14-1432.md" && k !== "memory/2026-09-15.md")),
        },
        {
          now: nightAfter("2026-09-15"),
          change: { ...pick(["memory/2026-09-15.md"]), "memory/2026-09-15-0812.md": late },
        },
      ],
      questions: QUESTIONS,
    });
    expect(out.differences).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    expect(out.secondRun).toEqual([]);
    const bank = bankOf(out.lived);
    expect(cited(bank, "memory/2026-09-15-0812.md")).toEqual([]);
    expect([...bank.keys()].filter((p) => /Lisbon/.test(p))).toEqual([]);
  }, 240_000);

  it("across a new year: the copy on 1 January of a chat the 31 December digest holds, the old year read from the memo", async () => {
    const at = (day: string) => (text: string) => text.replaceAll("2026-09-14", day).replaceAll("2026-09-15", day);
    const digest = at("2026-12-31")(FILES["memory/2026-09-14-sessions.md"]!);
    const copy = FILES["memory/2026-09-14-1432.md"]!.replace("2026-09-14 14:32:07", "2027-01-01 08:05:12");
    const out = await runScenario(dirs, {
      name: "new-year",
      nights: [
        {
          now: nightAfter("2026-12-30"),
          change: {
            "MEMORY.md": FILES["MEMORY.md"]!,
            "memory/2026-12-30.md": at("2026-12-30")(FILES["memory/2026-09-14.md"]!),
          },
        },
        { now: nightAfter("2026-12-31"), change: { "memory/2026-12-31-sessions.md": digest } },
        {
          now: nightAfter("2027-01-01"),
          change: {
            "memory/2027-01-01-0805.md": copy,
            "memory/2027-01-01.md": at("2027-01-01")(FILES["memory/2026-09-15.md"]!),
          },
        },
      ],
      questions: QUESTIONS,
    });
    expect(out.differences).toEqual([]);
    expect(out.fullInPlace).toEqual([]);
    expect(out.secondRun).toEqual([]);
    const bank = bankOf(out.lived);
    expect(cited(bank, "memory/2027-01-01-0805.md")).toEqual([]);
    expect([...bank.keys()].filter((p) => /Lisbon/.test(p))).toEqual([]);
    expect(bank.get("bank/entities/Marisol.md")).toContain("[memory/2026-12-31-sessions.md#L");
  }, 240_000);
});
