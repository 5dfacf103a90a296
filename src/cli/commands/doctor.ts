import type { Command } from "commander";
import type { IndexStatus } from "../../index/status.js";
import { loadWorkspace, printJson, workspaceOption } from "../shared.js";

interface DoctorFlags {
  workspace?: string;
  json?: boolean;
}

export interface DoctorReport {
  workspace: string;
  configFile: string | null;
  node: string;
  git: { present: boolean; version?: string; repository?: string; state?: string; busy?: boolean };
  /** Whether bank pages merge with membank's driver in this clone (issue 15). */
  mergeDriver?: { configured: boolean; attributes: boolean; setup?: string };
  embedding: { configured: string; provider: string; model?: string; fallback?: string };
  llm: { configured: string };
  sqlite: IndexStatus["sqlite"];
  sqliteVec: IndexStatus["sqliteVec"];
  index: IndexStatus["index"];
}

/** git's version, the workspace's repository, and whether a nightly run could commit now. */
async function gitReport(root: string): Promise<DoctorReport["git"]> {
  const { gitState, repoInfo, runGit } = await import("../../workspace/git.js");
  let version: string;
  try {
    version = (await runGit(["--version"], { cwd: root })).stdout.trim().replace(/^git version /, "");
  } catch {
    return { present: false };
  }
  try {
    const repo = await repoInfo(root);
    if (!repo) return { present: true, version, state: "not a git repository: pages are written, never committed" };
    const state = await gitState(repo);
    return {
      present: true,
      version,
      repository: repo.top,
      busy: state.kind === "busy",
      state:
        state.kind === "busy"
          ? `${state.what}: nightly runs write and commit nothing (exit 5) until you ${state.advice}`
          : state.kind === "unborn"
            ? `branch ${state.branch.replace(/^refs\/heads\//, "")} has no commit yet: the first run makes it`
            : `on ${state.branch.replace(/^refs\/heads\//, "")}: ready to commit`,
    };
  } catch (error) {
    // git is there but cannot use the repository (a .git file pointing nowhere, another owner,
    // core.bare): what a nightly run would stop with.
    return { present: true, version, busy: true, state: (error as Error).message };
  }
}

function formatDoctor(r: DoctorReport): string {
  const ok = (b: boolean | undefined) => (b ? "ok " : "-- ");
  const idx = r.index;
  const lines = [
    `workspace   ${r.workspace}`,
    `config      ${r.configFile ?? "(none: defaults)"}`,
    `node        ${r.node}`,
    `${ok(r.git.present && !r.git.busy)}git         ${r.git.present ? `${r.git.version}; ${r.git.state}` : "not found (reflect cannot commit)"}`,
    ...(r.mergeDriver
      ? [
          `${ok(r.mergeDriver.configured && r.mergeDriver.attributes)}merge       ${
            r.mergeDriver.configured && r.mergeDriver.attributes
              ? "bank pages merge with membank's driver"
              : `bank pages merge with git's text merge (conflicts are rebuilt by the next run); set up the driver: ${r.mergeDriver.setup}`
          }`,
        ]
      : []),
    `${ok(true)}sqlite      ${r.sqlite.version}`,
    `${ok(r.sqlite.fts5)}fts5        ${r.sqlite.fts5 ? "available (unicode61 + trigram)" : "missing: vector-only search"}`,
    `${ok(r.sqliteVec.loaded)}sqlite-vec  ${r.sqliteVec.loaded ? r.sqliteVec.version : `not loaded (${r.sqliteVec.error}); in-process cosine fallback`}`,
    `${ok(r.embedding.provider !== "none")}embedding   ${r.embedding.configured} -> ${r.embedding.provider}${r.embedding.model ? ` (${r.embedding.model})` : ""}${r.embedding.fallback ? `; ${r.embedding.fallback}` : r.embedding.provider === "none" ? " (BM25 + structure: the fast default; a local model or an API key adds vectors)" : ""}`,
    `    llm         ${r.llm.configured}`,
  ];
  if (!idx.present) {
    lines.push(`-- index       ${idx.file} not built yet (run: membank index)`);
  } else if (idx.problem) {
    lines.push(`-- index       ${idx.file} unusable: ${idx.problem} (the next membank index rebuilds it)`);
  } else {
    lines.push(
      `${ok(idx.fresh)}index       ${idx.file}: ${idx.files} files, ${idx.chunks} chunks, ${idx.facts} facts, ${idx.vectors} vectors; ` +
        (idx.fresh ? "fresh" : `${idx.stale} files changed since the last sync`),
    );
  }
  return lines.join("\n");
}

export function registerDoctor(program: Command): void {
  const cmd = program
    .command("doctor")
    .description("check the environment: SQLite, FTS5, sqlite-vec, embedding provider, index freshness, git");
  workspaceOption(cmd)
    .option("--json", "print the report as JSON")
    .action(async (flags: DoctorFlags) => {
      const ws = await loadWorkspace(flags);
      const { indexStatus, sqliteBindingProblem } = await import("../../index/status.js");
      // First: with a SQLite binding built for another Node nothing else can be checked.
      const binding = sqliteBindingProblem();
      if (binding) throw binding;
      const { resolveEmbedder } = await import("../../embed/index.js");
      const [status, git] = await Promise.all([indexStatus(ws), gitReport(ws.root)]);
      let embedding: DoctorReport["embedding"];
      try {
        const choice = await resolveEmbedder(ws);
        embedding = {
          configured: ws.config.embedding.provider,
          provider: choice.provider,
          ...(choice.model !== undefined ? { model: choice.model } : {}),
          ...(choice.fallback !== undefined ? { fallback: choice.fallback } : {}),
        };
      } catch (error) {
        embedding = { configured: ws.config.embedding.provider, provider: "none", fallback: (error as Error).message };
      }
      const { mergeDriverStatus } = await import("../../workspace/merge-driver.js");
      const driver = git.repository ? await mergeDriverStatus(ws.root).catch(() => undefined) : undefined;
      const report: DoctorReport = {
        workspace: ws.root,
        configFile: ws.configPath ?? null,
        node: process.version,
        git,
        ...(driver
          ? {
              mergeDriver: {
                configured: driver.command !== undefined,
                attributes: driver.attributes,
                ...(driver.command !== undefined && driver.attributes
                  ? {}
                  : { setup: `membank merge-driver --install --workspace ${ws.root}` }),
              },
            }
          : {}),
        embedding,
        llm: { configured: ws.config.llm.provider },
        sqlite: status.sqlite,
        sqliteVec: status.sqliteVec,
        index: status.index,
      };
      if (flags.json) printJson(report);
      else process.stdout.write(`${formatDoctor(report)}\n`);
    });
}
