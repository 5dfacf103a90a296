// One day of synthetic OpenClaw session transcripts (JSONL), for the nightly-pipeline
// benchmark (issue 6). Every record shape the ingester must handle appears: a session
// header, model changes, user/assistant messages whose content is a string or an array of
// blocks (text, thinking, toolCall), toolResult messages (ignored by ingestion), timestamps
// as ISO strings on the record or as milliseconds / seconds on the message, a heartbeat
// session, and a few fake secrets that digests must redact.

import { Rand } from "./generate-rand.mjs";
import * as V from "./generate-vocab.mjs";

const HEARTBEAT = "Read HEARTBEAT.md if it exists (workspace context). If nothing needs attention, reply HEARTBEAT_OK.";

function uuid(g) {
  return `${g.hex(8)}-${g.hex(4)}-4${g.hex(3)}-a${g.hex(3)}-${g.hex(12)}`;
}

function fillChat(template, g, date) {
  const memo = new Map();
  const value = (key) => {
    if (memo.has(key)) return memo.get(key);
    let v;
    if (key === "P") v = g.skewed(V.PEOPLE.slice(1));
    else if (key === "J") v = g.skewed(V.PROJECTS);
    else if (key === "T") v = g.skewed(V.THINGS);
    else if (key === "tech") v = g.pick(V.TECH);
    else if (key === "tk") v = `${g.pick(V.TICKET_PREFIXES)}-${g.int(100, 9999)}`;
    else if (key === "sha") v = g.hex(7);
    else if (key === "env")
      v = `${value("J").replace(/-/g, "_").toUpperCase()}_${g.pick(V.ENV_SUFFIXES)}=${g.int(2, 999)}`;
    else if (key === "err")
      v = g
        .pick(V.ERRORS)
        .replace(/\{n\}/g, String(g.int(1, 254)))
        .replace(/\{hex\}/g, g.hex(7))
        .replace(/\{proj\}/g, value("J"));
    else if (key === "n") v = String(g.int(2, 40));
    else if (key === "when") v = g.pick(["tomorrow", "next Monday", "on Friday", "this afternoon"]);
    else if (key === "date") v = `${date} at ${g.int(8, 17)}:00`;
    else throw new Error(`unknown chat slot {${key}}`);
    memo.set(key, v);
    return v;
  };
  return template.replace(/\{(\w+)\}/g, (_, key) => value(key));
}

function secret(g) {
  switch (g.int(0, 2)) {
    case 0:
      return `the staging key is sk-test-${g.hex(32)}`;
    case 1:
      return `password: hunter-${g.hex(10)}`;
    default:
      return `use token ghp_${g.hex(36)} for the CI bot`;
  }
}

/**
 * `sessions` transcripts for `date` with `messages` user+assistant messages in total.
 * Returns [{name, content, messages}] sorted by name. Pure and deterministic.
 */
export function generateSessions(date, { seed = 1, sessions = 20, messages = 2000 } = {}) {
  const g = new Rand(seed, `sessions:${date}`);
  const dayStart = Date.parse(`${date}T06:00:00Z`);
  const files = [];
  for (let s = 0; s < sessions; s++) {
    const count = Math.floor(messages / sessions) + (s < messages % sessions ? 1 : 0);
    const id = uuid(g);
    const heartbeat = sessions >= 5 && s === 0;
    let t = dayStart + Math.floor((s * 14 * 3600_000) / sessions) + g.int(0, 600) * 1000;
    const iso = () => new Date(t).toISOString();
    const lines = [
      { type: "session", version: 3, id, timestamp: iso(), cwd: "/home/mara/clawd" },
      {
        type: "model_change",
        id: g.hex(8),
        parentId: null,
        timestamp: iso(),
        provider: "anthropic",
        modelId: "claude-sonnet-4-5",
      },
    ];
    let parent = lines[1].id;
    let pair = null;
    for (let m = 0; m < count; m++) {
      t += g.int(5, 90) * 1000;
      const role = m % 2 === 0 ? "user" : "assistant";
      if (role === "user")
        pair = heartbeat ? [HEARTBEAT, "HEARTBEAT_OK"] : g.pick(V.CHAT).map((x) => fillChat(x, g, date));
      let text = role === "user" ? pair[0] : pair[1];
      if (role === "user" && !heartbeat && g.chance(0.02)) text += ` (${secret(g)})`;
      let content;
      if (role === "user") content = g.chance(0.5) ? text : [{ type: "text", text }];
      else {
        content = [];
        if (g.chance(0.3)) content.push({ type: "thinking", thinking: "Check memory first, then answer briefly." });
        if (!heartbeat && g.chance(0.15)) {
          const callId = `call_${g.hex(10)}`;
          const call = {
            type: "toolCall",
            id: callId,
            name: "memory_search",
            arguments: { query: pair[0].slice(0, 40) },
          };
          const rec = {
            type: "message",
            id: g.hex(8),
            parentId: parent,
            timestamp: iso(),
            message: { role: "assistant", content: [call], timestamp: t },
          };
          lines.push(rec);
          t += 1000;
          const res = {
            type: "message",
            id: g.hex(8),
            parentId: rec.id,
            timestamp: iso(),
            message: {
              role: "toolResult",
              toolCallId: callId,
              toolName: "memory_search",
              content: [{ type: "text", text: '{"results":[]}' }],
              timestamp: t,
            },
          };
          lines.push(res);
          parent = res.id;
          t += 1000;
        }
        content.push({ type: "text", text });
      }
      const rec = { type: "message", id: g.hex(8), parentId: parent };
      const r = g.next();
      // Timestamp shapes: ISO on the record (most), ms on the message, or seconds on the message.
      if (r < 0.8) {
        rec.timestamp = iso();
        rec.message = { role, content, timestamp: t };
      } else if (r < 0.95) rec.message = { role, content, timestamp: t };
      else rec.message = { role, content, timestamp: Math.floor(t / 1000) };
      lines.push(rec);
      parent = rec.id;
      if (g.chance(0.01))
        lines.push({
          type: "custom",
          customType: "usage-report",
          timestamp: iso(),
          data: { tokens: g.int(100, 5000) },
        });
    }
    files.push({
      name: `${id}.jsonl`,
      content: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
      messages: count,
    });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return files;
}
