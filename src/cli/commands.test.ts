import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerCommands } from "./commands.js";

/** A program like main.ts's, printing into a string instead of the terminal. */
function program(): { cmd: Command; out: () => string } {
  let text = "";
  const cmd = new Command()
    .name("membank")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => {
        text += s;
      },
      writeErr: (s) => {
        text += s;
      },
    });
  return { cmd, out: () => text };
}

async function run(args: string[], registerFor: string[]): Promise<string> {
  const p = program();
  await registerCommands(p.cmd, registerFor);
  try {
    await p.cmd.parseAsync(["node", "membank", ...args]);
  } catch {
    // help, version and usage errors end in a CommanderError: the output is what counts
  }
  return p.out();
}

describe("registerCommands", () => {
  it("lists every command, in help order, when no command is named", async () => {
    const p = program();
    await registerCommands(p.cmd, ["--help"]);
    expect(p.cmd.commands.map((c) => c.name())).toEqual([
      "init",
      "facts",
      "index",
      "search",
      "get",
      "recall",
      "reflect",
      "run",
      "schedule",
      "models",
      "watch",
      "mcp",
      "serve",
      "openclaw",
      "doctor",
      "merge-driver",
    ]);
  });

  it("registers only the named command, whose help and usage errors stay the same", async () => {
    const all = program();
    await registerCommands(all.cmd, []);
    for (const name of all.cmd.commands.map((c) => c.name())) {
      const one = program();
      await registerCommands(one.cmd, [name]);
      expect(one.cmd.commands.map((c) => c.name())).toEqual([name]);
      for (const args of [
        [name, "--help"],
        [name, "--no-such-flag"],
      ]) {
        const alone = await run(args, [name]);
        expect(alone).toContain(args[1] === "--help" ? `membank ${name}` : "unknown option");
        expect(alone, args.join(" ")).toBe(await run(args, []));
      }
    }
  });

  it("registers nothing for --version, which prints the same", async () => {
    const p = program();
    await registerCommands(p.cmd, ["--version"]);
    expect(p.cmd.commands).toEqual([]);
    expect(await run(["--version"], ["--version"])).toBe("0.1.0\n");
  });
});
