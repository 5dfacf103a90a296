#!/usr/bin/env node
// Convert REALTALK (Lee et al. 2025, "REALTALK: A 21-Day Real-World Dataset for Long-Term
// Conversation", https://github.com/danny911kr/REALTALK) into daily-log workspaces in the
// layout of ../shared/eval/locomo (see ../shared/eval/README.md), for bench/convo.bench.mjs.
//
//   node bench/convert-realtalk.mjs --in REALTALK/data [--out bench/.out/realtalk]
//
// --in is the repository's data/ folder (its Chat_*.json files; data/locomo/ is not read) or
// one such file. The repository states no licence, so no copy of the data lives in this
// project or under ../shared/eval: the user converts their own copy.
//
// REALTALK is ten real messaging-app conversations between two people over 21 days, in
// LoCoMo's JSON shape (session_N lists of turns with dia_id, speaker, clean_text, and a
// timestamp per message "29.12.2023, 22:42:04"; qa with evidence dia_ids and categories
// 1 multi-hop, 2 temporal, 3 open-domain, as in LoCoMo). Output:
//
//   <out>/workspaces/chat-NN/memory/YYYY-MM-DD.md  one log per day a message was sent (a session
//                                                   past midnight continues in the next day's log),
//                                                   one line per turn: "- **Speaker** (22:42): text"
//   <out>/workspaces/chat-NN/dia_map.json          dia_id -> {path, line}
//   <out>/queries.jsonl  {id, conversation, workspace, question, category, category_name, answer,
//                         evidence:[{path, line, dia_id}]}
//   <out>/stats.json     counts; evidence ids repaired ("D12:3-D12:5", "D5:3.", "D11:17; D16:1")
//                        and ids that name no message (the cleaned data dropped some), per question
//
// A question none of whose evidence names a message is left out (counted). Photo captions
// are kept as "[shares <caption>]", as in the LoCoMo logs. Same input, same bytes.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

const CATEGORIES = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial" };

/** "29.12.2023, 22:42:04" -> {day: "2023-12-29", time: "22:42"}, or undefined. */
export function parseTurnTime(s) {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s+(\d{1,2}):(\d{2})(?::\d{2})?\s*$/.exec(
    typeof s === "string" ? s : "",
  );
  if (!m || Number(m[4]) > 23 || Number(m[5]) > 59) return undefined;
  const day = isoDay(Number(m[3]), Number(m[2]), Number(m[1]));
  return day && { day, time: `${m[4].padStart(2, "0")}:${m[5]}` };
}

/**
 * One evidence entry as written by the annotators -> dia ids. Entries hold one id ("D1:6"),
 * several ("D11:17; D16:1", "D13:45:D20:19"), ranges in one session ("D12:3-D12:5") or stray
 * punctuation ("D5:3."). `known` lists the conversation's ids in order, to expand ranges.
 */
export function evidenceIds(raw, known) {
  const out = [];
  // "D17;39" is "D17:39" typed with the wrong key.
  const text = String(raw).replace(/\b(D\d+);(\d+)\b/g, "$1:$2");
  for (const part of text.split(/[;,\s]+|(?<=\d):(?=D)/)) {
    const token = part.replace(/^[^D]+|[^0-9]+$/g, "");
    if (token === "") continue;
    const range = /^(D\d+:\d+)-(D?\d+:\d+)$/.exec(token);
    if (!range) {
      out.push(token);
      continue;
    }
    // Every message from the first id to the last, in conversation order (ids may skip numbers).
    const from = known.indexOf(range[1]);
    const to = known.indexOf(range[2].startsWith("D") ? range[2] : `D${range[2]}`);
    if (from >= 0 && to >= from) out.push(...known.slice(from, to + 1));
    else out.push(range[1], range[2].startsWith("D") ? range[2] : `D${range[2]}`);
  }
  return out;
}

function naturalName(a, b) {
  return a.localeCompare(b, "en", { numeric: true });
}

/** Pure: one REALTALK conversation (parsed JSON) -> its workspace files, dia map and questions. */
export function convertConversation(conv, file, convId) {
  if (!conv || typeof conv !== "object" || Array.isArray(conv)) fail(file, "top level", "is not a JSON object");
  const sessionKeys = Object.keys(conv)
    .filter((k) => /^session_\d+$/.test(k))
    .sort(naturalName);
  if (sessionKeys.length === 0) fail(file, "top level", 'has no "session_1": not a REALTALK conversation');
  const speakers = conv.name && typeof conv.name === "object" ? Object.values(conv.name).map(String) : [];

  const files = new Map(); // memory/YYYY-MM-DD.md -> lines
  const diaMap = {};
  const order = [];
  const notes = { duplicate_ids: [] };
  let turns = 0;
  for (const key of sessionKeys) {
    const session = conv[key];
    if (!Array.isArray(session)) fail(file, key, "is not a list of turns");
    const n = key.slice("session_".length);
    let current;
    session.forEach((turn, t) => {
      const where = `${key}[${t}]${turn && typeof turn.dia_id === "string" ? ` (${turn.dia_id})` : ""}`;
      if (!turn || typeof turn !== "object") fail(file, where, "is not a turn object");
      for (const field of ["dia_id", "speaker"]) {
        if (typeof turn[field] !== "string" || turn[field].trim() === "") fail(file, where, `has no "${field}"`);
      }
      if (typeof turn.clean_text !== "string") fail(file, where, 'has no "clean_text" text');
      const at = parseTurnTime(turn.date_time ?? conv[`${key}_date_time`]);
      if (!at) {
        fail(file, where, `date_time ${JSON.stringify(turn.date_time)} is not like "29.12.2023, 22:42:04"`);
      }
      const rel = `memory/${at.day}.md`;
      let lines = files.get(rel);
      if (!lines) {
        lines = [`# ${at.day}`];
        files.set(rel, lines);
      }
      if (current !== rel) {
        // A session's first turn opens it; past midnight it continues in the next day's log.
        const heading =
          current === undefined
            ? `## Session ${n} (${at.time} on ${dayLabel(at.day)})${speakers.length ? `: ${speakers.join(" and ")}` : ""}`
            : `## Session ${n}, continued`;
        lines.push("", heading, "");
        current = rel;
      }
      const caption =
        typeof turn.blip_caption === "string" && turn.blip_caption.trim() !== ""
          ? ` [shares ${oneLine(turn.blip_caption)}]`
          : "";
      const text = `${oneLine(turn.clean_text)}${caption}`.trim();
      lines.push(`- **${oneLine(turn.speaker)}** (${at.time}):${text ? ` ${text}` : ""}`);
      turns++;
      if (turn.dia_id in diaMap) notes.duplicate_ids.push(turn.dia_id);
      else {
        diaMap[turn.dia_id] = { path: rel, line: lines.length };
        order.push(turn.dia_id);
      }
    });
  }

  const known = new Set(order);

  const queries = [];
  const skipped = { by_category: {}, no_evidence: {} };
  const repaired = [];
  const missing = [];
  if (!Array.isArray(conv.qa)) fail(file, "qa", "is not a list of questions");
  conv.qa.forEach((qa, i) => {
    const where = `qa[${i}]`;
    if (!qa || typeof qa.question !== "string" || qa.question.trim() === "") fail(file, where, 'has no "question"');
    const name = CATEGORIES[qa.category] ?? `category-${qa.category}`;
    if (qa.category === 5) {
      skipped.by_category[name] = (skipped.by_category[name] ?? 0) + 1;
      return;
    }
    if (!Array.isArray(qa.evidence)) fail(file, where, '"evidence" is not a list of dia ids');
    const ids = [];
    for (const raw of qa.evidence) {
      const got = evidenceIds(raw, order);
      if (got.length !== 1 || got[0] !== raw)
        repaired.push(`${convId} q${i}: ${JSON.stringify(raw)} -> ${got.join(" ")}`);
      for (const id of got) {
        if (!known.has(id)) missing.push(`${convId} q${i}: ${id}`);
        else if (!ids.includes(id)) ids.push(id);
      }
    }
    if (ids.length === 0) {
      skipped.no_evidence[name] = (skipped.no_evidence[name] ?? 0) + 1;
      return;
    }
    queries.push({
      id: `${convId}-q${String(i).padStart(3, "0")}`,
      conversation: convId,
      workspace: `workspaces/${convId}`,
      question: qa.question,
      category: qa.category,
      category_name: name,
      answer: typeof qa.answer === "string" ? qa.answer : JSON.stringify(qa.answer ?? ""),
      evidence: ids.map((id) => ({ ...diaMap[id], dia_id: id })),
    });
  });

  const out = new Map([...files].map(([rel, lines]) => [rel, `${lines.join("\n")}\n`]));
  out.set("dia_map.json", `${JSON.stringify(diaMap, null, 1)}\n`);
  return {
    files: out,
    queries,
    stats: { sessions: sessionKeys.length, turns, files: files.size, qa: conv.qa.length },
    skipped,
    repaired,
    missing,
    notes,
  };
}

/** The Chat_*.json files named by --in (a folder or one file), in natural order. */
export function inputFiles(input) {
  if (!existsSync(input)) throw new ConvertError(`${input}: no such file or folder: pass --in REALTALK's data/ folder`);
  if (!statSync(input).isDirectory()) return [input];
  const names = readdirSync(input)
    .filter((n) => n.endsWith(".json"))
    .sort(naturalName);
  if (names.length === 0)
    throw new ConvertError(`${input}: holds no .json conversation files (REALTALK's data/ has Chat_*.json)`);
  return names.map((n) => path.join(input, n));
}

/** Convert the conversations named by `input` into `outDir`; returns the stats. */
export async function convertRealtalk(input, outDir) {
  const files = inputFiles(input);
  return intoFolder(outDir, (dir) => {
    const stats = {
      source: "danny911kr/REALTALK data/Chat_*.json",
      files: {},
      conversations: 0,
      sessions: 0,
      turns: 0,
      logs: 0,
      qa_total: 0,
      qa_kept: 0,
      by_category: {},
      skipped_by_category: {},
      skipped_no_evidence: {},
      evidence_ids_repaired: [],
      evidence_ids_missing: [],
      duplicate_dia_ids: [],
    };
    const queries = [];
    const used = new Set();
    for (const file of files) {
      const bytes = readFileSync(file);
      let conv;
      try {
        conv = JSON.parse(bytes.toString("utf8"));
      } catch (e) {
        fail(file, "whole file", `not valid JSON (${e.message})`);
      }
      const base = path.basename(file, ".json");
      const num = /^Chat_(\d+)/i.exec(base);
      const convId = num ? `chat-${num[1].padStart(2, "0")}` : base.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
      if (used.has(convId))
        fail(file, "file name", `gives conversation id ${convId} twice: pass one copy of each chat`);
      used.add(convId);
      const r = convertConversation(conv, file, convId);
      writeWorkspace(dir, `workspaces/${convId}`, r.files);
      queries.push(...r.queries);
      stats.files[path.basename(file)] = createHash("sha256").update(bytes).digest("hex");
      stats.conversations++;
      stats.sessions += r.stats.sessions;
      stats.turns += r.stats.turns;
      stats.logs += r.stats.files;
      stats.qa_total += r.stats.qa;
      stats.qa_kept += r.queries.length;
      for (const q of r.queries) stats.by_category[q.category_name] = (stats.by_category[q.category_name] ?? 0) + 1;
      for (const [k, v] of Object.entries(r.skipped.by_category)) {
        stats.skipped_by_category[k] = (stats.skipped_by_category[k] ?? 0) + v;
      }
      for (const [k, v] of Object.entries(r.skipped.no_evidence)) {
        stats.skipped_no_evidence[k] = (stats.skipped_no_evidence[k] ?? 0) + v;
      }
      stats.evidence_ids_repaired.push(...r.repaired);
      stats.evidence_ids_missing.push(...r.missing);
      stats.duplicate_dia_ids.push(...r.notes.duplicate_ids.map((id) => `${convId} ${id}`));
    }
    stats.by_category = Object.fromEntries(Object.entries(stats.by_category).sort());
    writeIndex(dir, queries, stats);
    return stats;
  });
}

async function main(argv) {
  const flag = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes("--help") || !flag("in")) {
    console.error("usage: node bench/convert-realtalk.mjs --in REALTALK/data [--out bench/.out/realtalk]");
    return argv.includes("--help") ? 0 : 2;
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const out = path.resolve(flag("out") ?? path.join(root, "bench/.out/realtalk"));
  return runConvert("convert-realtalk", async () => {
    const s = await convertRealtalk(path.resolve(flag("in")), out);
    console.log(
      `${out}: ${s.qa_kept} of ${s.qa_total} questions over ${s.conversations} conversations ` +
        `(${s.sessions} sessions, ${s.turns} turns, ${s.logs} daily logs); ` +
        `${s.evidence_ids_repaired.length} evidence entries repaired, ${s.evidence_ids_missing.length} ids name no message`,
    );
    return 0;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
