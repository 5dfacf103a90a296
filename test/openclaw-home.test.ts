// `membank openclaw setup` on OpenClaw homes as people have them in 2026.9: a hand-written
// JSON5 config with agents in an $include file, several agents, a --profile, OPENCLAW_HOME,
// and a config with a typo. Setup must pick the workspace OpenClaw gives the agent, and must
// stop before changing anything when the config cannot be read.
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { includeBlocksWrites, openClawContext, planSetup } from "../src/openclaw/index.js";
import { lastLine } from "../src/openclaw/run.js";
import { loadOpenClawConfig } from "../src/sessions/openclaw-config.js";
import { findOpenClawSessions } from "../src/sessions/openclaw-locate.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const run = promisify(execFile);

/** A user's home with the given files (paths relative to it), and a shell with nothing OpenClaw-specific set. */
async function home(files: Record<string, string>): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-ochome-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  // Setup only plans here (no OpenClaw runs), so any executable stands in for its CLI.
  return { dir, env: { HOME: dir, OPENCLAW_BIN: "/bin/false", PATH: "/usr/bin:/bin", LANG: "C" } };
}

const TWO_AGENTS = {
  ".openclaw/openclaw.json": `// laptop config -- agents are in agents.json5 so the desktop can share them
{
  gateway: { port: 18789, bind: 'loopback' },
  agents: { $include: './agents.json5' },
  memory: { search: { provider: 'none', extraPaths: ['~/Documents/recipes', ] } },
}
`,
  ".openclaw/agents.json5": `{
  defaults: { workspace: '\${AGENT_ROOT}/agents' },
  list: [
    { id: 'main', default: true, workspace: '~/clawd' }, // the family assistant
    { id: 'Ops' },                                          // no workspace of its own
  ],
}
`,
};

describe("membank openclaw setup on a real person's OpenClaw home", () => {
  it("agents in an $include file, $-brace env paths: the default agent's own workspace, or --agent's", async () => {
    const { dir, env } = await home(TWO_AGENTS);
    const e = { ...env, AGENT_ROOT: path.join(dir, "srv") };
    const ctx = await openClawContext({ env: e });
    expect(ctx.workspace).toBe(path.join(dir, "clawd"));
    // Ops has no workspace of its own: OpenClaw puts it under agents.defaults.workspace.
    expect((await openClawContext({ env: e, agent: "ops" })).workspace).toBe(path.join(dir, "srv", "agents", "ops"));
    // The user's extraPaths entry (from the hand-written file) stays when bank is added.
    const extra = (await planSetup(ctx, { cron: false })).find((s) => s.id === "extra-paths")!;
    expect(JSON.parse(extra.command![3]!)).toEqual(["~/Documents/recipes", "bank"]);
    await expect(openClawContext({ env: e, agent: "kitchen" })).rejects.toThrow(
      /openclaw\.json: OpenClaw has no agent "kitchen" \(agents: main, ops\)/,
    );
  });

  it("several agents and none marked default: setup asks which one instead of guessing", async () => {
    const { env } = await home({
      ".openclaw/openclaw.json": `{ agents: { defaults: { workspace: "~/agents" }, list: [{ id: "home" }, { id: "work" }] } }`,
    });
    await expect(openClawContext({ env })).rejects.toThrow(
      /2 agents \(home, work\) and none is the default: pass --agent/,
    );
    // Unmarked agents each get <agents.defaults.workspace>/<id>, not the shared root.
    expect((await openClawContext({ env, agent: "home" })).workspace).toBe(path.join(env.HOME!, "agents", "home"));
  });

  it("a config OpenClaw 2026.9 has migrated (keyed entries, explicit ownership, systemAgent): setup wires the system agent", async () => {
    // What `openclaw config set` leaves behind after it migrates agents.list and default: true.
    const { dir, env } = await home({
      ".openclaw/openclaw.json": JSON.stringify({
        agents: {
          defaults: { workspace: "~/shared", systemAgent: { agentId: "main" }, heartbeat: { agentId: "main" } },
          ownership: "explicit",
          entries: { main: { workspace: "~/clawd" }, ops: {} },
        },
      }),
    });
    expect((await openClawContext({ env })).workspace).toBe(path.join(dir, "clawd"));
    expect((await openClawContext({ env, agent: "ops" })).workspace).toBe(path.join(dir, "shared", "ops"));
  });

  it("--profile work: OpenClaw's state in ~/.openclaw-work, and every OpenClaw command setup runs uses it", async () => {
    const { dir, env } = await home({
      ".openclaw/openclaw.json": "{}\n",
      ".openclaw-work/openclaw.json": `{ /* work profile */ memory: { search: { extraPaths: ["wiki"] } } }\n`,
    });
    const ctx = await openClawContext({ env, profile: "work" });
    expect(ctx.stateDir).toBe(path.join(dir, ".openclaw-work"));
    expect(ctx.configFile).toBe(path.join(dir, ".openclaw-work", "openclaw.json"));
    expect(ctx.workspace).toBe(path.join(dir, ".openclaw-work", "workspace"));
    expect(ctx.runner.env).toMatchObject({
      OPENCLAW_PROFILE: "work",
      OPENCLAW_STATE_DIR: path.join(dir, ".openclaw-work"),
      OPENCLAW_CONFIG_PATH: path.join(dir, ".openclaw-work", "openclaw.json"),
    });
    const extra = (await planSetup(ctx, { cron: false })).find((s) => s.id === "extra-paths")!;
    expect(JSON.parse(extra.command![3]!)).toEqual(["wiki", "bank"]);
    await expect(openClawContext({ env, profile: "../x" })).rejects.toThrow(/--profile "\.\.\/x"/);
  });

  it("OPENCLAW_HOME moves OpenClaw's home (a service user's), not HOME", async () => {
    const { dir, env } = await home({ "svc/.openclaw/openclaw.json": "{}\n" });
    const ctx = await openClawContext({ env: { ...env, OPENCLAW_HOME: path.join(dir, "svc") } });
    expect(ctx.stateDir).toBe(path.join(dir, "svc", ".openclaw"));
    expect(ctx.workspace).toBe(path.join(dir, "svc", ".openclaw", "workspace"));
  });

  it("a home still kept by Clawdbot (~/.clawdbot/clawdbot.json, no ~/.openclaw): read where OpenClaw 2026.9 reads it", async () => {
    const { dir, env } = await home({
      ".clawdbot/clawdbot.json": "{ agents: { defaults: { workspace: '~/clawd' } } }\n",
      ".clawdbot/agents/main/sessions/s1.jsonl": "",
    });
    const ctx = await openClawContext({ env });
    expect(ctx.stateDir).toBe(path.join(dir, ".clawdbot"));
    expect(ctx.configFile).toBe(path.join(dir, ".clawdbot", "clawdbot.json"));
    expect(ctx.workspace).toBe(path.join(dir, "clawd"));
    expect((await findOpenClawSessions(path.join(dir, "clawd"), { env }))?.dir).toBe(
      path.join(dir, ".clawdbot", "agents"),
    );
    // Once ~/.openclaw exists, OpenClaw uses it (and its openclaw.json), whatever ~/.clawdbot holds.
    await mkdir(path.join(dir, ".openclaw"));
    await writeFile(path.join(dir, ".openclaw", "openclaw.json"), "{}\n");
    const moved = await openClawContext({ env });
    expect([moved.stateDir, moved.configFile]).toEqual([
      path.join(dir, ".openclaw"),
      path.join(dir, ".openclaw", "openclaw.json"),
    ]);
  });

  it("a config with a typo: the CLI names file:line:column, exits 1 and changes nothing at all", async () => {
    // A missing comma, the way a hand edit goes wrong.
    const broken = `{
  // moved the workspace to the NAS
  memory: { search: { provider: "none" } },
  agents: { defaults: { workspace: "~/nas/clawd" } }
  plugins: {},
}
`;
    const { dir, env } = await home({ ".openclaw/openclaw.json": broken });
    const before = await readdir(dir, { recursive: true });
    const res = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron"], { env }).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${path.join(dir, ".openclaw", "openclaw.json")}:5:3: not valid JSON5`);
    expect(await readFile(path.join(dir, ".openclaw", "openclaw.json"), "utf8")).toBe(broken);
    expect(await readdir(dir, { recursive: true })).toEqual(before);
  });
});

describe("a failed OpenClaw command", () => {
  it("is reported by OpenClaw's reason on stderr, not by a notice on stdout", () => {
    // Captured from `openclaw plugins install --link` (2026.9.6) on a config whose agents.json5
    // include still has the pre-2026.9 agents.list shape.
    const res = {
      code: 1,
      stderr:
        "\u001b[35m[config]\u001b[39m \u001b[33mwarnings: agents.entries: Moved agents.list to keyed agents.entries.\u001b[39m\n" +
        "WARNING - Installing plugin from local path: /opt/membank/openclaw-plugin\n" +
        "Config write would flatten $include-owned config at agents; edit that include file directly or remove the $include first.\n",
      stdout:
        'Plugin manifest id "membank" differs from npm package name "membank-openclaw"; using manifest id as the config key.\n',
    };
    expect(lastLine(res)).toBe(
      "Config write would flatten $include-owned config at agents; edit that include file directly or remove the $include first.",
    );
  });
});

describe("a config OpenClaw itself refuses", () => {
  it("setup asks `openclaw config validate` first and stops with OpenClaw's reason before changing anything", async () => {
    // Two agents and no ownership: OpenClaw 2026.9 refuses every config write on this file.
    const { dir, env } = await home({
      ".openclaw/openclaw.json": `{ agents: { $include: "./agents.json5" } }\n`,
      ".openclaw/agents.json5": `{ entries: { main: { workspace: "~/clawd" }, ops: {} } }\n`,
    });
    // Stands in for OpenClaw 2026.9.6 with what it answered on that file (captured).
    const fake = path.join(dir, "openclaw");
    const report = JSON.stringify({
      ok: false,
      error: { type: "cli_error", message: "OpenClaw config is invalid: ~/.openclaw/openclaw.json" },
      valid: false,
      path: path.join(dir, ".openclaw", "openclaw.json"),
      issues: [
        {
          path: "agents.ownership",
          message:
            'multi-agent rosters require agents.ownership="explicit" or one legacy default=true marker; add agents.ownership="explicit" or run openclaw doctor',
        },
      ],
    });
    await writeFile(
      fake,
      `#!/bin/sh\ncase "$*" in\n  --version) echo "OpenClaw 2026.9.6 (eb377ac)" ;;\n  "config validate --json") echo '${report}'; exit 1 ;;\n  *) echo "called: $*" >> "${dir}/calls"; exit 0 ;;\nesac\n`,
    );
    await chmod(fake, 0o755);
    const before = await readdir(dir, { recursive: true });
    const res = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron", "--agent", "main"], {
      env: { ...env, OPENCLAW_BIN: fake },
    }).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `${path.join(dir, ".openclaw", "openclaw.json")}: OpenClaw finds its config invalid: agents.ownership: multi-agent rosters require`,
    );
    expect(res.stderr).toMatch(/nothing was changed/);
    expect(await readdir(dir, { recursive: true })).toEqual(before);
  });
});

describe("an $include OpenClaw 2026.9 will not write through", () => {
  // Both verified with openclaw@2026.9.6: every `openclaw config set` / `plugins install` on these
  // files exits 1 with "Config write would flatten $include-owned config at agents" (or "<root>").
  it("agents still in the pre-2026.9 shape inside an include: setup stops first, naming that file, and changes nothing", async () => {
    const { dir, env } = await home({ ...TWO_AGENTS, "clawd/AGENTS.md": "# house rules\n" });
    const fake = path.join(dir, "openclaw");
    await writeFile(
      fake,
      `#!/bin/sh\necho "$*" >> "${dir}/calls"\n[ "$1" = --version ] && echo "OpenClaw 2026.9.6"\nexit 0\n`,
    );
    await chmod(fake, 0o755);
    const before = await readdir(dir, { recursive: true });
    const res = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron"], {
      env: { ...env, AGENT_ROOT: path.join(dir, "srv"), OPENCLAW_BIN: fake },
    }).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${path.join(dir, ".openclaw", "agents.json5")}: OpenClaw's agents`);
    expect(res.stderr).toMatch(/entries: \{ <id>: \{ \.\.\. \} \} with ownership: "explicit".*nothing was changed/);
    expect(await readFile(path.join(dir, "calls"), "utf8")).toBe("--version\n");
    await rm(path.join(dir, "calls"));
    expect(await readdir(dir, { recursive: true })).toEqual(before);
  });

  it("a top-level $include blocks every write; the 2026.9 shape in an include is fine", async () => {
    const { dir } = await home({
      "a/openclaw.json": `{ $include: "./base.json5", gateway: { port: 18789 } }`,
      "a/base.json5": `{ memory: { search: { provider: "none" } } }`,
      "b/openclaw.json": `{ agents: { $include: "./agents.json5" } }`,
      "b/agents.json5": `{ ownership: "explicit", entries: { main: { workspace: "~/clawd" }, ops: {} } }`,
    });
    const blocked = (name: string) => {
      const file = path.join(dir, name, "openclaw.json");
      return includeBlocksWrites(file, loadOpenClawConfig(file, {})!);
    };
    expect(blocked("a")).toMatch(/openclaw\.json: its top level is an \$include/);
    expect(blocked("b")).toBeUndefined();
  });
});

describe("an openclaw.json with comments (OpenClaw 2026.9 writes it back as plain JSON)", () => {
  const CONFIG = `{
  gateway: { port: 18789 }, // moved off 18790 after the printer clash
  memory: { search: { provider: "none", extraPaths: ["http://intranet/notes" /* not a comment: a URL */] } },
  /* the family agent */
  agents: { defaults: { workspace: "~/clawd" } },
}
`;
  async function withFake(): Promise<{ dir: string; env: NodeJS.ProcessEnv; fake: string }> {
    const { dir, env } = await home({ ".openclaw/openclaw.json": CONFIG, "clawd/memory/2026-09-14.md": "# Sun\n" });
    // Stands in for OpenClaw 2026.9.6: answers --version and validate, records every other call.
    const fake = path.join(dir, "openclaw");
    await writeFile(
      fake,
      `#!/bin/sh\ncase "$*" in\n  --version) echo "OpenClaw 2026.9.6 (eb377ac)" ;;\n  "config validate --json") echo '{"valid":true}' ;;\n  *) echo "$*" >> "${dir}/calls" ;;\nesac\nexit 0\n`,
    );
    await chmod(fake, 0o755);
    return { dir, env: { ...env, OPENCLAW_BIN: fake }, fake };
  }

  it("setup stops before any change, naming the comment's line and the two ways on", async () => {
    const { dir, env } = await withFake();
    const before = await readdir(dir, { recursive: true });
    const res = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron"], { env }).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${path.join(dir, ".openclaw", "openclaw.json")}:2: has comments`);
    expect(res.stderr).toMatch(/\$include file .* --drop-comments .* openclaw\.json\.bak, .*; nothing was changed/);
    expect(await readdir(dir, { recursive: true })).toEqual(before);
    expect(await readFile(path.join(dir, ".openclaw", "openclaw.json"), "utf8")).toBe(CONFIG);
  });

  it("--dry-run says so; --drop-comments goes ahead through OpenClaw's CLI", async () => {
    const { dir, env } = await withFake();
    const dry = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron", "--dry-run"], { env });
    expect(dry.stdout).toMatch(/note: without --drop-comments setup stops here: .*openclaw\.json:2: has comments/);
    const go = await run(process.execPath, [MEMBANK_BIN, "openclaw", "setup", "--no-cron", "--drop-comments"], { env });
    expect(go.stdout).toContain("[did ] let memory_search read the bank");
    expect(await readFile(path.join(dir, "calls"), "utf8")).toMatch(/^config set memory\.search\.extraPaths /m);
  });

  it("no comment, no stop: a // inside a string is no comment (OpenClaw's own rule)", async () => {
    const { firstCommentLine } = await import("../src/openclaw/index.js");
    expect(firstCommentLine('{ "url": "http://x//y", \'a\': "b/*c*/" }')).toBeUndefined();
    expect(firstCommentLine('{\n  "a": "\\"//"\n}')).toBeUndefined();
    expect(firstCommentLine(CONFIG)).toBe(2);
    expect(firstCommentLine("{\n\n  /* x */ a: 1 }")).toBe(3);
  });
});
