// OpenClaw's config as people keep it (2026.9): JSON5 edited by hand, parts split into files
// with `$include`, paths from the environment with `${VAR}`. membank must read it the way
// OpenClaw does, and stop with file:line on a config OpenClaw cannot read either.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOpenClawConfig, OpenClawConfigError, parseConfigText } from "../src/sessions/openclaw-config.js";
import { parseDotEnv, withOpenClawDotEnv } from "../src/sessions/openclaw-dotenv.js";

const parseJson5 = (text: string) => parseConfigText(text, "openclaw.json");
/** The `line` of the file:line:column a broken config is named by. */
const brokenAt = (text: string): [number, number] | undefined => {
  try {
    parseJson5(text);
    return undefined;
  } catch (e) {
    const m = /^openclaw\.json:(\d+):(\d+): not valid JSON5/.exec((e as Error).message);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  }
};

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "membank-occfg-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("JSON5", () => {
  it("reads any JSON the way JSON.parse does, however it is indented", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (v, indent) => {
        const text = JSON.stringify(v, null, indent);
        expect(parseJson5(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("reads a config written by hand: bare keys, single quotes, comments, trailing commas, hex, +/-, escaped line breaks", () => {
    const text = `// gateway box in the hallway cupboard
{
  gateway: { port: 0x4965, bind: 'loopback', },   /* 18789 */
  agents: {
    defaults: { workspace: '~/clawd', timeoutSeconds: +600, temperature: .7, },
    list: [
      { id: "main", name: 'Rosie\\'s helper', default: true },
      { id: 'ops', workspace: "/srv/ops", $schema: null },
    ],
  },
  note: "one \\
line",
  limits: { max: Infinity, min: -Infinity, ratio: 1.5e3 },
  'quoted-key': "a // not a comment /* nor this */",
}
`;
    expect(parseJson5(text)).toEqual({
      gateway: { port: 18789, bind: "loopback" },
      agents: {
        defaults: { workspace: "~/clawd", timeoutSeconds: 600, temperature: 0.7 },
        list: [
          { id: "main", name: "Rosie's helper", default: true },
          { id: "ops", workspace: "/srv/ops", $schema: null },
        ],
      },
      note: "one line",
      limits: { max: Number.POSITIVE_INFINITY, min: Number.NEGATIVE_INFINITY, ratio: 1500 },
      "quoted-key": "a // not a comment /* nor this */",
    });
  });

  it("says where a config is broken, line and column as OpenClaw's own parser says it", () => {
    // The exact file `openclaw` 2026.9.6 rejects with "JSON5: invalid character 'p' at 5:3".
    const text =
      '{\n  // broken\n  memory: { search: { provider: "none" } },\n  agents: { defaults: { workspace: "~/w" }\n  plugins: {},\n}\n';
    expect(() => parseJson5(text)).toThrow(OpenClawConfigError);
    expect(brokenAt(text)).toEqual([5, 3]);
    for (const [bad, line] of [
      ['{\n  "a": 1\n  "b": 2\n}', 3],
      ["{ a: 'unterminated }", 1],
      ["{\n a: [1, 2,, 3] }", 2],
      ["{ a: 1 } extra", 1],
      ["{\n\n  a: 012 }", 3],
    ] as const) {
      expect(brokenAt(bad)?.[0], bad).toBe(line);
    }
  });
});

async function files(dir: string, entries: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(entries)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return path.join(dir, "openclaw.json");
}

describe("OpenClaw's config file", () => {
  it("merges $include files as OpenClaw does: one file replaces, a list deep-merges, keys beside it win, nested paths are relative", async () => {
    const file = await files(path.join(tmp, "inc"), {
      "openclaw.json": `{
  // agents are kept in their own file, shared between laptops
  agents: { $include: "./parts/agents.json5" },
  memory: {
    $include: ["./parts/memory-base.json5", "./parts/memory-local.json5"],
    search: { provider: "none" },
  },
}`,
      "parts/agents.json5": `{ defaults: { workspace: "~/clawd" }, list: [{ $include: "./main-agent.json5" }, { id: "ops" }] }`,
      "parts/main-agent.json5": `{ id: "main", default: true }`,
      "parts/memory-base.json5": `{ search: { provider: "openai", extraPaths: ["notes"] } }`,
      "parts/memory-local.json5": `{ search: { extraPaths: ["../shared-docs"] } }`,
    });
    expect(loadOpenClawConfig(file, {})).toEqual({
      agents: { defaults: { workspace: "~/clawd" }, list: [{ id: "main", default: true }, { id: "ops" }] },
      memory: { search: { provider: "none", extraPaths: ["notes", "../shared-docs"] } },
    });
  });

  it("puts environment values into $-brace strings, keeps an unset one as written and a doubled $ literal", async () => {
    const file = await files(path.join(tmp, "env"), {
      "openclaw.json": `{ agents: { defaults: { workspace: "\${CLAWD_ROOT}/main" } }, a: "\${NOT_SET_HERE}", b: "$\${CLAWD_ROOT}", c: "\${lower}" }`,
    });
    expect(loadOpenClawConfig(file, { CLAWD_ROOT: "/data/claw", lower: "x" })).toEqual({
      agents: { defaults: { workspace: "/data/claw/main" } },
      a: `\${NOT_SET_HERE}`,
      b: `\${CLAWD_ROOT}`,
      c: `\${lower}`,
    });
  });

  it("a missing config is no config; a broken one, or a broken include, names the file and line", async () => {
    expect(loadOpenClawConfig(path.join(tmp, "nope", "openclaw.json"), {})).toBeUndefined();
    const file = await files(path.join(tmp, "broken"), {
      "openclaw.json": `{ agents: { $include: "./agents.json5" } }`,
      "agents.json5": `{\n  list: [\n    { id: "main" }\n    { id: "ops" },\n  ],\n}\n`,
    });
    expect(() => loadOpenClawConfig(file, {})).toThrow(OpenClawConfigError);
    expect(() => loadOpenClawConfig(file, {})).toThrow(
      `${path.join(tmp, "broken", "agents.json5")}:4:5: not valid JSON5`,
    );
    const loop = await files(path.join(tmp, "loop"), {
      "openclaw.json": `{ a: { $include: "./a.json5" } }`,
      "a.json5": `{ b: { $include: "./openclaw.json" } }`,
    });
    expect(() => loadOpenClawConfig(loop, {})).toThrow(/circular \$include/);
    const missing = await files(path.join(tmp, "missing"), { "openclaw.json": `{ a: { $include: "./gone.json5" } }` });
    expect(() => loadOpenClawConfig(missing, {})).toThrow(/gone\.json5 cannot be read \(ENOENT\)/);
  });
});

describe("OpenClaw's .env files", () => {
  it("are read as the dotenv package reads them: export, quotes, comments, a multi-line value", () => {
    const text = [
      "# paths for this laptop",
      "export NOTES=/home/ana/Sync/notes",
      "WORK_DIR = '/srv/work dir'   # spaces kept inside quotes",
      'GREETING="line one\\nline two"',
      'PEM="-----BEGIN\nabc\n-----END"',
      "EMPTY=",
      "URL=https://example.org/a#frag",
      "bad key=nope",
      "",
    ].join("\r\n");
    expect(parseDotEnv(text)).toEqual({
      NOTES: "/home/ana/Sync/notes",
      WORK_DIR: "/srv/work dir",
      GREETING: "line one\nline two",
      PEM: "-----BEGIN\nabc\n-----END",
      EMPTY: "",
      URL: "https://example.org/a",
    });
  });

  it("fill only what the shell leaves unset: the state dir's file first, then gateway.env", async () => {
    const home = await mkdtemp(path.join(tmp, "home-"));
    const state = path.join(home, ".openclaw");
    await mkdir(state, { recursive: true });
    await mkdir(path.join(home, ".config", "openclaw"), { recursive: true });
    await writeFile(path.join(state, ".env"), "A=from-state\nB=from-state\n");
    await writeFile(path.join(home, ".config", "openclaw", "gateway.env"), "B=from-gateway\nC=from-gateway\n");
    const env = withOpenClawDotEnv({ A: "from-shell" }, { stateDir: state, home });
    expect([env.A, env.B, env.C]).toEqual(["from-shell", "from-state", "from-gateway"]);
    // A profile's own state dir: gateway.env belongs to the default one only.
    const work = path.join(home, ".openclaw-work");
    await mkdir(work);
    await writeFile(path.join(work, ".env"), "A=work\n");
    const profiled = withOpenClawDotEnv({ OPENCLAW_STATE_DIR: work }, { stateDir: work, home });
    expect([profiled.A, profiled.C]).toEqual(["work", undefined]);
  });
});
