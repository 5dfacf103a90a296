import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  bothWiredNote,
  describeStep,
  mcpServerEntry,
  nightlyArgv,
  type OpenClawContext,
  openClawContext,
  planSetup,
  upsertRetainBlock,
} from "../src/openclaw/index.js";
import { MEMBANK_BIN } from "./cli-bin.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pluginDir = path.join(repo, "openclaw-plugin");
const cli = MEMBANK_BIN;
const run = promisify(execFile);

/** A temp OpenClaw home with the given openclaw.json (as OpenClaw writes it: plain JSON). */
async function home(config: unknown): Promise<{ state: string; env: NodeJS.ProcessEnv }> {
  const dir = await mkdtemp(path.join(tmpdir(), "membank-ocsetup-"));
  const state = path.join(dir, ".openclaw");
  await mkdir(path.join(state, "workspace", "memory"), { recursive: true });
  await writeFile(path.join(state, "openclaw.json"), JSON.stringify(config, null, 2));
  // Setup only plans here (no OpenClaw is run), so any executable stands in for its CLI.
  return { state, env: { HOME: dir, OPENCLAW_STATE_DIR: state, OPENCLAW_BIN: "/bin/false", PATH: "/usr/bin:/bin" } };
}

async function ctxFor(config: unknown): Promise<OpenClawContext> {
  return openClawContext({ env: (await home(config)).env });
}

describe("membank openclaw setup: the plan", () => {
  it("keeps the user's other extraPaths and plugin settings when it adds its own", async () => {
    const ctx = await ctxFor({
      memory: { search: { extraPaths: ["../team-docs", { path: "notes", pattern: "**/*.md" }] } },
      plugins: { entries: { membank: { config: { timeoutMs: 5000 } } } },
    });
    const steps = await planSetup(ctx, { cron: false });
    const extra = steps.find((s) => s.id === "extra-paths")!;
    expect(JSON.parse(extra.command![3]!)).toEqual(["../team-docs", { path: "notes", pattern: "**/*.md" }, "bank"]);
    const cfg = steps.find((s) => s.id === "plugin-config")!;
    expect(JSON.parse(cfg.command![3]!)).toEqual({
      timeoutMs: 5000,
      membank: cli,
      node: process.execPath,
      workspace: ctx.workspace,
    });
  });

  it("writes the user's $VAR references back as written, not as their values (and counts them as done)", async () => {
    const { state, env } = await home({
      memory: { search: { extraPaths: [`\${VAULT}/daily`, "../team-docs"] } },
      plugins: { entries: { membank: { config: { label: `\${MEMBANK_LABEL}` } } } },
    });
    const vars = { ...env, VAULT: "/home/ana/vault", MEMBANK_LABEL: "work" };
    const steps = await planSetup(await openClawContext({ env: vars }), { cron: false });
    const extra = steps.find((s) => s.id === "extra-paths")!;
    expect(JSON.parse(extra.command![3]!)).toEqual([`\${VAULT}/daily`, "../team-docs", "bank"]);
    const cfg = steps.find((s) => s.id === "plugin-config")!;
    expect(JSON.parse(cfg.command![3]!).label).toBe(`\${MEMBANK_LABEL}`);
    // Once applied (OpenClaw writes what it was given), setup has nothing left to do for them.
    await writeFile(
      path.join(state, "openclaw.json"),
      JSON.stringify({
        memory: { search: { extraPaths: JSON.parse(extra.command![3]!) } },
        plugins: { entries: { membank: { config: JSON.parse(cfg.command![3]!) } } },
      }),
    );
    const again = await planSetup(await openClawContext({ env: vars }), { cron: false });
    expect(again.filter((s) => ["extra-paths", "plugin-config"].includes(s.id) && !s.done)).toEqual([]);
  });

  it("finds the workspace from agents.defaults.workspace, else <state>/workspace", async () => {
    const { state, env } = await home({});
    expect((await openClawContext({ env })).workspace).toBe(path.join(state, "workspace"));
    const custom = await ctxFor({ agents: { defaults: { workspace: "/srv/clawd" } } });
    expect(custom.workspace).toBe("/srv/clawd");
  });

  it("a workspace written as a relative path: setup says which folder it took and that OpenClaw's may differ", async () => {
    const rel = await ctxFor({ agents: { defaults: { workspace: "clawd" } } });
    expect(rel.workspace).toBe(path.resolve("clawd"));
    expect(rel.workspaceNote).toMatch(
      /openclaw\.json gives the workspace as a relative path, "clawd": OpenClaw takes it from the Gateway's working folder/,
    );
    const own = await ctxFor({ agents: { entries: { main: { workspace: "./agents/main" } } } });
    expect(own.workspaceNote).toContain('"./agents/main"');
    // An id written in capitals is the same agent to OpenClaw (its ids are lower case): its own setting is the one read.
    const capitals = await ctxFor({ agents: { entries: { Main: { workspace: "./agents/main" } } } });
    expect(capitals.workspaceNote).toContain('"./agents/main"');
    for (const workspace of ["~/clawd", "/srv/clawd"]) {
      expect((await ctxFor({ agents: { defaults: { workspace } } })).workspaceNote).toBeUndefined();
    }
    expect((await ctxFor({})).workspaceNote).toBeUndefined();
  });

  it("has nothing to do on a wired install (the cron job is asked of the Gateway, so it is always tried)", async () => {
    const { state, env } = await home({});
    const ws = path.join(state, "workspace");
    const ctx0 = await openClawContext({ env });
    await writeFile(path.join(ws, "membank.config.json"), "{}\n");
    await writeFile(path.join(ws, "AGENTS.md"), upsertRetainBlock("# mine\n", ctx0.guidance));
    await writeFile(
      path.join(state, "openclaw.json"),
      JSON.stringify({
        memory: { search: { extraPaths: ["bank"] } },
        plugins: {
          load: { paths: [pluginDir] },
          entries: { membank: { enabled: true, config: { membank: cli, node: process.execPath, workspace: ws } } },
        },
      }),
    );
    const ctx = await openClawContext({ env });
    expect((await planSetup(ctx, { cron: false })).filter((s) => !s.done)).toEqual([]);
    const withCron = (await planSetup(ctx)).filter((s) => !s.done).map((s) => s.id);
    expect(withCron).toEqual(["cron"]);
  });

  it("schedules the nightly at 04:00, after OpenClaw's dreaming at 03:00, unless told a time", async () => {
    const ctx = await ctxFor({});
    const cronOf = async (opts: Parameters<typeof planSetup>[1]) => {
      const command = (await planSetup(ctx, opts)).find((s) => s.id === "cron")?.command ?? [];
      return command[command.indexOf("--cron") + 1];
    };
    expect(await cronOf({})).toBe("0 4 * * *");
    expect(await cronOf({ cronExpr: "30 2 * * *" })).toBe("30 2 * * *");
  });

  it("--mcp: the server entry uses membank's own node, a 120 s timeout and only membank's tools", async () => {
    const ctx = await ctxFor({});
    expect(mcpServerEntry(ctx)).toEqual({
      command: process.execPath,
      args: [cli, "mcp", "--workspace", ctx.workspace],
      requestTimeoutMs: 120000,
      toolFilter: { include: ["memory_recall", "memory_entity"] },
    });
    const ids = (await planSetup(ctx, { mcp: true, cron: false })).map((s) => s.id);
    expect(ids).toEqual(["workspace", "mcp", "extra-paths", "agents-md"]);
  });

  it("--mcp over the user's own membank entry: its env (an API key's $VAR, as written) and cwd stay; the other servers are not touched", async () => {
    const mine = {
      command: "membank",
      args: ["mcp"],
      env: { OPENAI_API_KEY: `\${OPENAI_API_KEY}` },
      cwd: "/home/ana",
      url: "http://old.example/mcp",
    };
    const { env } = await home({ mcp: { servers: { github: { command: "npx" }, membank: mine } } });
    const ctx = await openClawContext({ env: { ...env, OPENAI_API_KEY: "sk-live-123" } });
    const step = (await planSetup(ctx, { mcp: true, cron: false })).find((s) => s.id === "mcp")!;
    expect(step.done).toBe(false);
    expect(step.summary).toMatch(/^update MCP server "membank" .*, keeping its env, cwd$/);
    // `openclaw mcp set <name> <json>` replaces that one entry: the json carries what stays.
    expect(step.command!.slice(0, 3)).toEqual(["mcp", "set", "membank"]);
    const written = JSON.parse(step.command![3]!);
    expect(written).toEqual({
      ...mcpServerEntry(await ctxFor({})),
      args: [cli, "mcp", "--workspace", ctx.workspace],
      env: mine.env,
      cwd: "/home/ana",
    });
    expect(step.command!.join(" ")).not.toContain("sk-live-123");
  });

  it("a plugin left disabled (openclaw plugins disable / uninstall leave enabled: false): setup enables it again", async () => {
    const ctx = await ctxFor({ plugins: { entries: { membank: { enabled: false } } } });
    const step = (await planSetup(ctx, { cron: false })).find((s) => s.id === "plugin-enabled")!;
    expect(step.done).toBe(false);
    expect(step.command).toEqual(["plugins", "enable", "membank", "--accept-capabilities"]);
    const fresh = (await planSetup(await ctxFor({}), { cron: false })).find((s) => s.id === "plugin-enabled")!;
    expect(fresh.done).toBe(true);
  });

  it("plugin and MCP server both wired: setup says the tools come twice and which command keeps the chosen one", async () => {
    const both = await ctxFor({
      plugins: { load: { paths: [pluginDir] }, entries: { membank: { enabled: true } } },
      mcp: { servers: { membank: { command: "membank" } } },
    });
    expect(bothWiredNote(both, true)).toMatch(
      /offered memory_recall and memory_entity twice; `openclaw plugins disable membank`/,
    );
    expect(bothWiredNote(both, false)).toMatch(/twice; `openclaw mcp unset membank` keeps only the plugin's$/);
    const pluginOnly = await ctxFor({ plugins: { load: { paths: [pluginDir] } } });
    expect(bothWiredNote(pluginOnly, false)).toBeUndefined();
    const disabled = await ctxFor({
      plugins: { load: { paths: [pluginDir] }, entries: { membank: { enabled: false } } },
    });
    expect(bothWiredNote(disabled, true)).toBeUndefined();
  });

  it("dry-run lines show the exact command, quoted for a shell", async () => {
    const ctx = await ctxFor({});
    const steps = await planSetup(ctx);
    const text = steps.flatMap((s) => describeStep(s, true)).join("\n");
    expect(text).toContain(`$ openclaw plugins install --link --force --accept-capabilities ${pluginDir}`);
    expect(text).toContain(`$ openclaw config set memory.search.extraPaths '["bank"]' --strict-json`);
    expect(text).toMatch(
      /\$ openclaw cron add --name 'membank nightly' --declaration-key membank-nightly --cron '0 4 \* \* \*'/,
    );
  });

  it("the nightly job counts exit 3 (nothing to do) as success and passes other failures on", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-nightly-"));
    const fake = path.join(dir, "fake-node");
    // Stands in for node: exits with the code named in the workspace path's last segment.
    await writeFile(fake, '#!/bin/sh\nexit "$(basename "$5")"\n');
    await chmod(fake, 0o755);
    const ctx = await ctxFor({});
    const argvFor = (code: number) => nightlyArgv({ ...ctx, node: fake, cli: "run-arg", workspace: `${dir}/${code}` });
    const exitOf = async (code: number) => {
      const [cmd, ...args] = argvFor(code);
      return run(cmd!, args).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
    };
    expect(await exitOf(0)).toBe(0);
    expect(await exitOf(3)).toBe(0);
    expect(await exitOf(1)).toBe(1);
    expect(await exitOf(4)).toBe(4);
  });

  it("setup --tz Pacific/Auckland: the nightly job runs membank in that zone (its today, its chat days)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "membank-nightly-tz-"));
    const out = path.join(dir, "seen");
    // Stands in for membank's CLI: writes the zone node sees and the day it calls today.
    const probe = path.join(dir, "probe.mjs");
    await writeFile(
      probe,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(out)}, Intl.DateTimeFormat().resolvedOptions().timeZone);\n`,
    );
    const ctx = await ctxFor({});
    const steps = await planSetup({ ...ctx, cli: probe }, { tz: "Pacific/Auckland" });
    const cron = steps.find((s) => s.id === "cron")!.command!;
    const argv = JSON.parse(cron[cron.indexOf("--command-argv") + 1]!) as string[];
    expect(cron).toContain("Pacific/Auckland");
    const [cmd, ...args] = argv;
    await run(cmd!, args, { env: { PATH: "/usr/bin:/bin", TZ: "UTC" } });
    expect(await readFile(out, "utf8")).toBe("Pacific/Auckland");
  });

  it("with no OpenClaw anywhere, the CLI says how to get it and exits 1", async () => {
    const { env } = await home({});
    const { OPENCLAW_BIN: _, ...noBin } = env;
    const res = await run(process.execPath, [cli, "openclaw", "setup", "--dry-run"], { env: noBin }).catch((e) => e);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/OpenClaw not found.*--openclaw <path>/);
    expect(await readFile(path.join(env.OPENCLAW_STATE_DIR!, "openclaw.json"), "utf8")).toBe("{}");
  });
});
