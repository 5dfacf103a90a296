#!/usr/bin/env node
// Convert LongMemEval (Wu et al., ICLR 2025; repository MIT-licensed) into daily-log workspaces in the layout of
// ../shared/eval/locomo (see ../shared/eval/README.md), so that bench/convo.bench.mjs
// (pnpm bench:longmemeval) scores recall on it as on LoCoMo.
//
//   node bench/convert-longmemeval.mjs --in longmemeval_s.json [--out bench/.out/longmemeval]
//
// --in is a copy of longmemeval_s.json, longmemeval_m.json or longmemeval_oracle.json (or the
// "cleaned" _s), downloaded by the user from the Hugging Face dataset that
// https://github.com/xiaowu0162/LongMemEval links (none is stored here); it is
// read as a stream, one instance at a time, so the 2.7 GB _m file fits in memory.
// Every question has its own haystack of sessions, so every question gets its own workspace:
//
//   <out>/workspaces/<question_id>/memory/YYYY-MM-DD.md   one file per session date, one line per turn:
//                                                          "- **User** (10:14): text" / "- **Assistant** (10:14): ..."
//   <out>/queries.jsonl   {id, workspace, question, category, category_name, answer, asOf, evidence:[{path,line}],
//                          answer_sessions:[{id, path, start, end}]}   (the session-level gold, outside the workspace)
//   <out>/stats.json      counts, and what was left out and why
//
// Evidence is every turn marked `has_answer: true`. Abstention questions (id ending in _abs:
// the answer is "you never said") and questions with no marked turn are left out (counted in
// stats.json), as LongMemEval's own retrieval evaluation does. Session ids never reach the
// text (they start with "answer_" on evidence sessions: that would leak the gold).
// Same input, same bytes. Bad input stops with one line naming the file and the instance.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ConvertError,
  dayLabel,
  fail,
  intoFolder,
  isoDay,
  oneLine,
  runConvert,
  writeIndex,
  writeWorkspace,
} from "./convert-support.mjs";

const BLANK = new Set([0x20, 0x0a, 0x0d, 0x09]);
const BOM = new Set([0xef, 0xbb, 0xbf]);

/**
 * LongMemEval writes "2023/05/20 (Sat) 02:21"; some re-publications use ISO dashes or drop
 * the weekday or the time. Returns {day: "2023-05-20", time: "02:21" | undefined, sortKey}.
 */
export function parseSessionDate(s) {
  const m =
    /^\s*(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*\([A-Za-z]{3}\))?(?:[\sT]+(\d{1,2}):(\d{2})(?::\d{2})?)?\s*$/.exec(
      typeof s === "string" ? s : "",
    );
  if (!m) return undefined;
  const day = isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  if (!day || (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59))) return undefined;
  const time = m[4] === undefined ? undefined : `${m[4].padStart(2, "0")}:${m[5]}`;
  return { day, time, sortKey: `${day} ${time ?? "00:00"}`, label: dayLabel(day) };
}

/**
 * Pure: one LongMemEval instance -> its workspace's files and its query (or why it is left out).
 * `file` and `index` only name the instance in errors.
 */
export function convertInstance(inst, file, index) {
  const where = `instance ${index}${inst && typeof inst.question_id === "string" ? ` (question_id ${inst.question_id})` : ""}`;
  if (!inst || typeof inst !== "object" || Array.isArray(inst)) fail(file, where, "is not a JSON object");
  const id = inst.question_id;
  if (typeof id !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) {
    fail(file, where, `question_id ${JSON.stringify(id)} is missing or not a plain id`);
  }
  for (const key of ["question", "question_type"]) {
    if (typeof inst[key] !== "string" || inst[key].trim() === "") fail(file, where, `"${key}" is missing or empty`);
  }
  const { haystack_sessions: sessions, haystack_dates: dates, haystack_session_ids: ids } = inst;
  if (!Array.isArray(sessions)) fail(file, where, `"haystack_sessions" is not a list`);
  if (!Array.isArray(dates) || dates.length !== sessions.length) {
    fail(file, where, `"haystack_dates" must list one date per session (${sessions.length} sessions)`);
  }
  if (ids !== undefined && (!Array.isArray(ids) || ids.length !== sessions.length)) {
    fail(file, where, `"haystack_session_ids" must list one id per session (${sessions.length} sessions)`);
  }
  const asOf = inst.question_date === undefined ? undefined : parseSessionDate(inst.question_date);
  if (inst.question_date !== undefined && !asOf) {
    fail(
      file,
      where,
      `question_date ${JSON.stringify(inst.question_date)} is not a date like "2023/05/20 (Sat) 02:21"`,
    );
  }

  // Chronological order (the _s/_m haystacks are nearly sorted, the oracle's are not); ties keep input order.
  const order = sessions.map((turns, i) => {
    const at = parseSessionDate(dates[i]);
    if (!at)
      fail(file, where, `haystack_dates[${i}] ${JSON.stringify(dates[i])} is not a date like "2023/05/20 (Sat) 02:21"`);
    if (!Array.isArray(turns)) fail(file, where, `haystack_sessions[${i}] is not a list of turns`);
    return { i, at, turns, sid: ids ? String(ids[i]) : `session-${i + 1}` };
  });
  order.sort((a, b) => (a.at.sortKey < b.at.sortKey ? -1 : a.at.sortKey > b.at.sortKey ? 1 : a.i - b.i));

  const files = new Map(); // memory/YYYY-MM-DD.md -> lines
  const sessionMap = {};
  const evidence = [];
  let turnCount = 0;
  order.forEach(({ i, at, turns, sid }, n) => {
    const rel = `memory/${at.day}.md`;
    let lines = files.get(rel);
    if (!lines) {
      lines = [`# ${at.day}`];
      files.set(rel, lines);
    }
    const time = at.time ?? "";
    lines.push("", `## Session ${n + 1} (${time ? `${time} on ` : ""}${at.label}): user and assistant`, "");
    const start = lines.length + 1;
    turns.forEach((turn, t) => {
      if (!turn || typeof turn !== "object" || typeof turn.content !== "string") {
        fail(file, where, `haystack_sessions[${i}][${t}] has no "content" text`);
      }
      if (turn.role !== "user" && turn.role !== "assistant") {
        fail(
          file,
          where,
          `haystack_sessions[${i}][${t}] has role ${JSON.stringify(turn.role)}, not "user" or "assistant"`,
        );
      }
      const text = oneLine(turn.content);
      const who = turn.role === "user" ? "User" : "Assistant";
      lines.push(`- **${who}**${time ? ` (${time})` : ""}:${text ? ` ${text}` : ""}`);
      if (turn.has_answer === true) evidence.push({ path: rel, line: lines.length });
      turnCount++;
    });
    // A repeated session id (re-published haystacks have some) keeps its first place as the gold session.
    if (!(sid in sessionMap)) sessionMap[sid] = { path: rel, start, end: lines.length };
  });

  const out = new Map([...files].map(([rel, lines]) => [rel, `${lines.join("\n")}\n`]));
  const answerSessions = Array.isArray(inst.answer_session_ids) ? inst.answer_session_ids.map(String) : [];
  const query = {
    id,
    workspace: `workspaces/${id}`,
    question: inst.question,
    category: inst.question_type,
    category_name: inst.question_type,
    answer:
      inst.answer === undefined ? "" : typeof inst.answer === "string" ? inst.answer : JSON.stringify(inst.answer),
    ...(asOf ? { asOf: `${asOf.day}T${asOf.time ?? "12:00"}:00Z` } : {}),
    evidence: evidence.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)),
    answer_sessions: answerSessions.filter((s) => s in sessionMap).map((s) => ({ id: s, ...sessionMap[s] })),
  };
  const skip = id.endsWith("_abs") ? "abstention" : evidence.length === 0 ? "no_evidence" : undefined;
  return { id, files: out, sessionMap, query, skip, sessions: order.length, turns: turnCount };
}

/**
 * The top-level array's elements, parsed one at a time from a byte stream (JSON.parse on the
 * whole file would need the 2.7 GB _m file in one string). Tracks strings and nesting only.
 */
export async function* streamArray(file, onChunk = () => {}) {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  let parts = [];
  let begin = -1;
  let count = 0;
  let offset = 0;
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream) {
      onChunk(chunk);
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) inString = false;
          continue;
        }
        if (c === 0x22) {
          inString = true;
          if (depth === 1) fail(file, `byte ${offset + i}`, "the list holds a string, not an instance object");
        } else if (c === 0x7b || c === 0x5b) {
          if (!started) {
            if (c !== 0x5b) fail(file, "byte 0", "is not a JSON list of LongMemEval instances");
            started = true;
          } else if (depth === 1) {
            begin = i;
            parts = [];
          }
          depth++;
        } else if (c === 0x7d || c === 0x5d) {
          depth--;
          if (depth < 0) fail(file, `byte ${offset + i}`, "unbalanced brackets: not valid JSON");
          if (depth === 1) {
            parts.push(chunk.subarray(begin, i + 1));
            const text = Buffer.concat(parts).toString("utf8");
            parts = [];
            begin = -1;
            let value;
            try {
              value = JSON.parse(text);
            } catch (e) {
              fail(file, `instance ${count}`, `not valid JSON (${e.message})`);
            }
            yield value;
            count++;
          }
        } else if (depth <= 1 && !BLANK.has(c) && !(depth === 1 && c === 0x2c) && !(offset + i < 3 && BOM.has(c))) {
          // Outside an instance only blanks, commas and a byte-order mark belong.
          if (!started) fail(file, "byte 0", "is not a JSON list of LongMemEval instances");
          fail(file, `byte ${offset + i}`, depth === 1 ? "the list holds a non-object" : "text after the JSON list");
        }
      }
      if (begin >= 0) {
        parts.push(chunk.subarray(begin));
        begin = 0;
      }
      offset += chunk.length;
    }
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(`${file}: cannot read (${e.code ?? e.message})`);
  }
  if (!started || depth !== 0 || inString) fail(file, "end of file", "the JSON list is cut short or missing");
}

/** Convert `inFile` into `outDir` (replacing an earlier conversion there); returns the stats. */
export async function convertFile(inFile, outDir) {
  if (!existsSync(inFile)) throw new ConvertError(`${inFile}: no such file: pass --in a copy of longmemeval_s.json`);
  return intoFolder(outDir, (dir) => convertInto(inFile, dir));
}

async function convertInto(inFile, outDir) {
  const stats = {
    source: path.basename(inFile),
    instances: 0,
    kept: 0,
    sessions: 0,
    turns: 0,
    files: 0,
    evidence_lines: 0,
    by_category: {},
    skipped: { abstention: 0, no_evidence: {} },
  };
  const seen = new Set();
  const queries = [];
  let index = 0;
  const hash = createHash("sha256");
  for await (const inst of streamArray(inFile, (chunk) => hash.update(chunk))) {
    const r = convertInstance(inst, inFile, index++);
    if (seen.has(r.id)) fail(inFile, `instance ${index - 1}`, `question_id ${r.id} appears twice`);
    seen.add(r.id);
    stats.instances++;
    if (r.skip === "abstention") {
      stats.skipped.abstention++;
      continue;
    }
    if (r.skip === "no_evidence") {
      stats.skipped.no_evidence[r.query.category] = (stats.skipped.no_evidence[r.query.category] ?? 0) + 1;
      continue;
    }
    writeWorkspace(outDir, r.query.workspace, r.files);
    queries.push(r.query);
    stats.kept++;
    stats.sessions += r.sessions;
    stats.turns += r.turns;
    stats.files += r.files.size;
    stats.evidence_lines += r.query.evidence.length;
    stats.by_category[r.query.category] = (stats.by_category[r.query.category] ?? 0) + 1;
  }
  if (stats.instances === 0) fail(inFile, "the list", "holds no instances");
  stats.sha256 = hash.digest("hex");
  stats.by_category = Object.fromEntries(Object.entries(stats.by_category).sort());
  writeIndex(outDir, queries, stats);
  return stats;
}

async function main(argv) {
  const flag = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes("--help") || !flag("in")) {
    console.error("usage: node bench/convert-longmemeval.mjs --in longmemeval_s.json [--out bench/.out/longmemeval]");
    return argv.includes("--help") ? 0 : 2;
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const out = path.resolve(flag("out") ?? path.join(root, "bench/.out/longmemeval"));
  return runConvert("convert-longmemeval", async () => {
    const stats = await convertFile(path.resolve(flag("in")), out);
    const unmarked = Object.values(stats.skipped.no_evidence).reduce((a, b) => a + b, 0);
    console.log(
      `${out}: ${stats.kept} questions in ${stats.kept} workspaces (${stats.sessions} sessions, ${stats.turns} turns); ` +
        `left out ${stats.skipped.abstention} abstention, ${unmarked} without marked evidence`,
    );
    return 0;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
