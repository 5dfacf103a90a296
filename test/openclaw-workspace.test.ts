// OpenClaw as people set it up: the agent's workspace is not `~/.openclaw/workspace` but a
// folder named in OpenClaw's own config (`agents.defaults.workspace`, a hand-edited JSON5
// file with comments). The nightly run must still find that agent's chats.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOpenClawConfigFile } from "../src/sessions/openclaw-locate.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const exec = promisify(execFile);
const CLI = MEMBANK_BIN;

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-ocws-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/** A home with OpenClaw's state dir (config + one agent's chat) and an agent workspace elsewhere. */
async function home(config: string): Promise<{ home: string; ws: string }> {
  const home = await mkdtemp(path.join(tmp, "home-"));
  const state = path.join(home, ".openclaw");
  const sessions = path.join(state, "agents", "main", "sessions");
  await mkdir(sessions, { recursive: true });
  await writeFile(path.join(state, "openclaw.json"), config);
  await writeFile(
    path.join(sessions, "7f3c9e.jsonl"),
    line({ type: "session", version: 3, id: "7f3c9e", timestamp: "2026-10-05T18:20:00.000Z", cwd: home }) +
      line({
        type: "message",
        timestamp: "2026-10-05T18:20:04.000Z",
        message: {
          role: "user",
          content: "note for later: the boiler service guy comes back on the 14th, bring the warranty card",
        },
      }) +
      line({
        type: "message",
        timestamp: "2026-10-05T18:20:09.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "Got it, boiler follow-up on the 14th with the warranty card." }],
        },
      }),
  );
  const ws = path.join(home, "clawd");
  await mkdir(path.join(ws, "memory"), { recursive: true });
  await writeFile(path.join(ws, "memory", "2026-10-04.md"), "# Sat\n\nQuiet day, sorted the garage.\n");
  await writeFile(path.join(ws, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
  return { home, ws };
}

const shell = (homeDir: string): NodeJS.ProcessEnv => {
  const { OPENCLAW_STATE_DIR: _s, OPENCLAW_CONFIG_PATH: _c, OPENCLAW_WORKSPACE_DIR: _w, ...rest } = process.env;
  return { ...rest, HOME: homeDir, EDITOR: "vi", PAGER: "less", LANG: "C" };
};

describe("an OpenClaw workspace named in OpenClaw's config", () => {
  it("agents.defaults.workspace = ~/clawd in a JSON5 config with comments: the nightly digests that agent's chats", async () => {
    const { home: h, ws } = await home(
      `// my OpenClaw setup, edited by hand
{
  "gateway": { "port": 18789 }, // default port
  /* where the agent keeps its notes */
  "agents": {
    "defaults": {
      "workspace": "~/clawd",
      "model": "anthropic/claude-sonnet-4-6",
    },
  },
  "channels": { "whatsapp": { "allowFrom": ["+4915112345678"] } },
}
`,
    );
    const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
    expect(stdout).not.toMatch(/no sessions folder/);
    expect(await readdir(path.join(ws, "memory"))).toContain("2026-10-05-sessions.md");
    const digest = await readFile(path.join(ws, "memory", "2026-10-05-sessions.md"), "utf8");
    expect(digest).toContain("boiler service guy comes back on the 14th");
  });

  it("a folder that OpenClaw's config does not name reads no chats", async () => {
    const { home: h, ws } = await home('{ "agents": { "defaults": { "workspace": "~/elsewhere" } } }\n');
    const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
    expect(stdout).toMatch(/no sessions folder/);
    expect(await readdir(path.join(ws, "memory"))).not.toContain("2026-10-05-sessions.md");
  });

  it("two agents, each with its own workspace: each workspace's nightly digests only its own agent's chats", async () => {
    const h = await mkdtemp(path.join(tmp, "home-"));
    const state = path.join(h, ".openclaw");
    const chat = async (agent: string, id: string, text: string) => {
      const dir = path.join(state, "agents", agent, "sessions");
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, `${id}.jsonl`),
        line({ type: "session", version: 3, id, timestamp: "2026-10-06T07:00:00.000Z", cwd: h }) +
          line({ type: "message", timestamp: "2026-10-06T07:00:02.000Z", message: { role: "user", content: text } }),
      );
    };
    await chat("main", "a1", "remind me to call mum about the christmas flights");
    await chat("work", "b1", "the Q4 vendor audit for Halvorsen Ltd is due friday, confidential");
    await writeFile(
      path.join(state, "openclaw.json"),
      `${JSON.stringify(
        {
          agents: {
            list: [
              { id: "main", default: true },
              { id: "work", model: "openai/gpt-5" },
            ],
          },
        },
        null,
        2,
      )}\n`,
    );
    const digestOf = async (ws: string) => {
      await mkdir(path.join(ws, "memory"), { recursive: true });
      await writeFile(path.join(ws, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
      await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
      return readFile(path.join(ws, "memory", "2026-10-06-sessions.md"), "utf8");
    };
    await mkdir(path.join(state, "workspace-work"), { recursive: true });
    const home = await digestOf(path.join(state, "workspace"));
    expect(home).toContain("christmas flights");
    expect(home).not.toContain("Halvorsen");
    const work = await digestOf(path.join(state, "workspace-work"));
    expect(work).toContain("Halvorsen");
    expect(work).not.toContain("christmas flights");
  });

  it("agents kept in an $include file with bare keys and a $HOME-brace path: the nightly still finds that agent's chats", async () => {
    const { home: h, ws } = await home(
      `{
  // split up after the 2026.9 upgrade
  gateway: { port: 18789 },
  agents: { $include: './agents.json5' },
}
`,
    );
    await writeFile(
      path.join(h, ".openclaw", "agents.json5"),
      `{
  list: [
    { id: 'main', default: true, workspace: '\${HOME}/clawd' },
    { id: 'scratch' },
  ],
}
`,
    );
    const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
    expect(stdout).not.toMatch(/no sessions folder/);
    const digest = await readFile(path.join(ws, "memory", "2026-10-05-sessions.md"), "utf8");
    expect(digest).toContain("boiler service guy comes back on the 14th");
  });

  it("a $-brace path set only in ~/.openclaw/.env (OpenClaw loads it): each agent's chats go to its own workspace", async () => {
    const h = await mkdtemp(path.join(tmp, "home-"));
    const state = path.join(h, ".openclaw");
    const chat = async (agent: string, id: string, text: string) => {
      const dir = path.join(state, "agents", agent, "sessions");
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, `${id}.jsonl`),
        line({ type: "session", version: 3, id, timestamp: "2026-10-07T06:40:00.000Z", cwd: h }) +
          line({ type: "message", timestamp: "2026-10-07T06:40:03.000Z", message: { role: "user", content: text } }),
      );
    };
    await chat("main", "c1", "the vet moved Biscuit's jab to thursday at 5");
    await chat("client", "d1", "Brandvold's merger numbers stay under NDA until the 20th");
    const notes = path.join(h, "Sync", "notes");
    // Where people keep machine-specific paths; the shell that runs cron has none of these.
    await writeFile(
      path.join(state, ".env"),
      `# openclaw env\nexport NOTES_ROOT=${notes}\nCLIENT_WS="${path.join(notes, "client")}" # work agent\nANTHROPIC_API_KEY=sk-not-used\n`,
    );
    await writeFile(
      path.join(state, "openclaw.json"),
      `{
  agents: {
    defaults: { workspace: "\${NOTES_ROOT}/home" },
    list: [{ id: "main", default: true }, { id: "client", workspace: "\${CLIENT_WS}" }],
  },
}
`,
    );
    const digestOf = async (ws: string) => {
      await mkdir(path.join(ws, "memory"), { recursive: true });
      await writeFile(path.join(ws, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
      const { stdout } = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
      expect(stdout).not.toMatch(/no sessions folder/);
      return readFile(path.join(ws, "memory", "2026-10-07-sessions.md"), "utf8");
    };
    await mkdir(path.join(notes, "client"), { recursive: true });
    const mine = await digestOf(path.join(notes, "home"));
    expect(mine).toContain("Biscuit's jab");
    expect(mine).not.toContain("Brandvold");
    const client = await digestOf(path.join(notes, "client"));
    expect(client).toContain("Brandvold");
    expect(client).not.toContain("Biscuit");
  });

  it("a config OpenClaw cannot read (an $include moved away): no chats read, the file named; the run after the fix reads only its own", async () => {
    const h = await mkdtemp(path.join(tmp, "home-"));
    const state = path.join(h, ".openclaw");
    for (const [agent, id, text] of [
      ["main", "e1", "pick up the dry cleaning before saturday"],
      ["ops", "f1", "rotate the Kessler VPN creds, do not share"],
    ] as const) {
      const dir = path.join(state, "agents", agent, "sessions");
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, `${id}.jsonl`),
        line({ type: "session", version: 3, id, timestamp: "2026-10-08T09:00:00.000Z", cwd: h }) +
          line({ type: "message", timestamp: "2026-10-08T09:00:04.000Z", message: { role: "user", content: text } }),
      );
    }
    await mkdir(path.join(h, "ops-notes"), { recursive: true });
    await writeFile(
      path.join(state, "openclaw.json"),
      `{ agents: { $include: "./agents.json5" }, gateway: { port: 18789 } }\n`,
    );
    const ws = path.join(state, "workspace");
    await mkdir(path.join(ws, "memory"), { recursive: true });
    await writeFile(path.join(ws, "membank.config.json"), '{ "embedding": { "provider": "none" } }\n');
    const broken = await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
    expect(broken.stdout).toContain(`no chats read: ${path.join(state, "openclaw.json")}: $include`);
    expect(await readdir(path.join(ws, "memory"))).not.toContain("2026-10-08-sessions.md");

    await writeFile(
      path.join(state, "agents.json5"),
      `{ list: [{ id: "main", default: true }, { id: "ops", workspace: "~/ops-notes" }] }\n`,
    );
    await exec(process.execPath, [CLI, "run", "nightly", "--workspace", ws], { env: shell(h) });
    const digest = await readFile(path.join(ws, "memory", "2026-10-08-sessions.md"), "utf8");
    expect(digest).toContain("dry cleaning");
    expect(digest).not.toContain("Kessler");
  });

  it("reads OpenClaw's JSON5 config: comments and trailing commas go, strings with // and /* stay", async () => {
    const file = path.join(tmp, "oc.json5");
    await writeFile(
      file,
      '{\n  // comment\n  "a": "https://example.org/x", /* block */\n  "b": ["/* not a comment */", 2,],\n}\n',
    );
    expect(await readOpenClawConfigFile(file)).toEqual({ a: "https://example.org/x", b: ["/* not a comment */", 2] });
    expect(await readOpenClawConfigFile(path.join(tmp, "missing.json"))).toBeUndefined();
  });
});
