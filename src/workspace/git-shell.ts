/**
 * One small `/bin/sh` that starts a pipeline run's git processes (see runGit in git.ts).
 *
 * Node starts a child with fork + exec: the fork copies the page tables of the whole Node
 * process, so a git call made after reflect (RSS ~160-200 MB) costs 20-40 ms before git
 * even runs, and the nightly makes ~19 of them. A shell started early (RSS ~60 MB) and kept
 * for the run forks a process of a few hundred KB instead. Each call runs in the background
 * (calls run at once as before) with stdin, stdout and stderr in files of a private temp
 * folder; the shell answers `<id> <status>` on its stdout. The shell is in a process group of
 * its own, like runGit's `detached` calls, and removes its folder when its stdin closes (also
 * when membank is killed). Signals and a missing git read from sh's status: 128+N is signal N,
 * 127 is "not found".
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import path from "node:path";

/** What one git call did, as runGit reads it. */
export interface ShellOutcome {
  /** Exit code, null when a signal ended git. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** git was not found on PATH (or the folder to run it in is missing, as spawn's ENOENT). */
  missing: boolean;
}

const SH = "/bin/sh";
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** sh's `$?` for git killed by signal N is 128+N; git's own codes stay at 128 (fatal) and 129 (usage). */
const signalOf = (status: number): NodeJS.Signals | null => {
  if (status <= 129 || status > 128 + 64) return null;
  const hit = Object.entries(constants.signals).find(([, n]) => n === status - 128);
  return (hit?.[0] as NodeJS.Signals | undefined) ?? null;
};

/** A single-quoted sh word: safe for any text (newlines included). */
export function shQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

export class GitShell {
  private readonly waiting = new Map<number, (status: string) => void>();
  private next = 0;
  private pending = "";
  private failed: Error | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (text: string) => this.read(text));
    child.on("error", (error) => this.fail(error));
    child.on("close", () => this.fail(new Error("the git helper shell ended")));
    child.stdin?.on("error", (error) => this.fail(error));
    this.idle();
  }

  /** A shell for `env` (runGit's environment), or undefined where there is none (Windows, no /bin/sh, no temp folder). */
  static open(env: NodeJS.ProcessEnv): GitShell | undefined {
    if (process.platform === "win32" || !existsSync(SH)) return undefined;
    // The shell first: a membank killed between the folder's creation and the shell's trap
    // below would leave the folder behind, and the fork is the slow part of that.
    const child = spawn(SH, [], { cwd: "/", env, stdio: ["pipe", "pipe", "ignore"], detached: true });
    // Memory-backed where Linux has it and TMPDIR does not say otherwise: no disk journal for
    // the ~40 small files of a run.
    const bases = [...(process.env.TMPDIR === undefined && existsSync("/dev/shm") ? ["/dev/shm"] : []), tmpdir()];
    let dir: string | undefined;
    for (const base of bases) {
      try {
        dir = mkdtempSync(path.join(base, "membank-git-"));
        break;
      } catch {
        // the next one
      }
    }
    if (dir === undefined) {
      child.on("error", () => {});
      child.stdin?.end();
      child.unref();
      return undefined;
    }
    // At the end of its input (closed by membank, or by membank's death) the shell waits for
    // the git processes still running, then removes its folder.
    // (PATH is the user's, maybe without rm: then /bin/rm.)
    const rmDir = `rm -rf ${shQuote(dir)}`;
    child.stdin?.write(`trap ${shQuote(`wait; ${rmDir} 2>/dev/null || /bin/${rmDir}`)} EXIT\n`);
    return new GitShell(child, dir);
  }

  /** Whether `run` can take a call with these extra variables (names sh can export). */
  accepts(env: Record<string, string> | undefined): boolean {
    return this.failed === undefined && Object.keys(env ?? {}).every((k) => NAME.test(k));
  }

  run(
    args: string[],
    opts: { cwd: string; input?: string | Buffer; env?: Record<string, string> },
  ): Promise<ShellOutcome> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    const file = (ext: string) => path.join(this.dir, `${id}.${ext}`);
    const stdin = opts.input === undefined ? "/dev/null" : file("in");
    if (opts.input !== undefined) writeFileSync(stdin, opts.input);
    const exports = Object.entries(opts.env ?? {})
      .map(([k, v]) => `export ${k}=${shQuote(v)}; `)
      .join("");
    const line =
      `{ cd ${shQuote(opts.cwd)} 2>/dev/null || { echo "${id} nocwd"; exit; }; ${exports}` +
      `git ${args.map(shQuote).join(" ")} <${shQuote(stdin)} >${shQuote(file("out"))} 2>${shQuote(file("err"))}; ` +
      `echo "${id} $?"; } &\n`;
    const answered = new Promise<string>((resolve) => this.waiting.set(id, resolve));
    this.busy();
    this.child.stdin?.write(line);
    return answered.then((status) => {
      if (this.failed && status === "") throw this.failed;
      const take = (ext: string) => {
        try {
          return readFileSync(file(ext));
        } catch {
          return Buffer.alloc(0);
        } finally {
          rmSync(file(ext), { force: true });
        }
      };
      const stdout = take("out");
      const stderr = take("err");
      if (opts.input !== undefined) rmSync(stdin, { force: true });
      if (status === "nocwd") return { code: null, signal: null, stdout, stderr, missing: true };
      const n = Number(status);
      const signal = signalOf(n);
      return { code: signal ? null : n, signal, stdout, stderr, missing: n === 127 };
    });
  }

  /** Close the shell's input: it finishes what runs, removes its folder and exits; membank does not wait. */
  close(): void {
    if (this.failed === undefined) this.failed = new Error("the git helper shell was closed");
    this.child.stdin?.end();
    this.idle();
    // Every answer is read: nothing of the folder is in use.
    if (this.waiting.size === 0) rmSync(this.dir, { recursive: true, force: true });
  }

  private read(text: string): void {
    this.pending += text;
    let nl = this.pending.indexOf("\n");
    while (nl >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      const space = line.indexOf(" ");
      const id = Number(line.slice(0, space));
      const done = this.waiting.get(id);
      if (done) {
        this.waiting.delete(id);
        done(line.slice(space + 1));
      }
      nl = this.pending.indexOf("\n");
    }
    if (this.waiting.size === 0) this.idle();
  }

  private fail(error: Error): void {
    if (this.failed === undefined) this.failed = error;
    for (const done of this.waiting.values()) done("");
    this.waiting.clear();
    this.idle();
    rmSync(this.dir, { recursive: true, force: true });
  }

  // Waiting for an answer keeps Node running; an idle shell does not.
  private busy(): void {
    this.child.ref();
    (this.child.stdout as unknown as { ref?: () => void } | null)?.ref?.();
  }

  private idle(): void {
    this.child.unref();
    (this.child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
    (this.child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }
}
