/**
 * reflect: facts -> bank pages -> one git commit (DESIGN.md 1.2, 1.3).
 *
 * STATE AND IDEMPOTENCE. bank/opinions.md is the opinion state: each opinion's region
 * holds its statement, entities, confidence, previous confidence, first-stated and
 * last-updated dates, and the ids of every fact already applied as supporting or
 * contradicting evidence. A run parses it back, then applies only facts not yet listed
 * as evidence of an opinion (and only facts of days after the opinion was first stated),
 * oldest day first. So:
 *  - a second run finds nothing new to apply and writes the same bytes (no commit);
 *  - a full run and an incremental run (`since`) end in the same state, because the
 *    facts before `since` are already listed as evidence (or were judged unrelated,
 *    which is deterministic and judged the same again);
 *  - a hand-changed confidence is read back and is the next update's starting point.
 * All other pages (entity pages, world/experience/observations, proposals) are a pure
 * function of all facts plus the opinion state, so they need no state of their own. An
 * incremental run gets the facts older than `since` from the snapshot in
 * .memory/reflect/ (derived, one file per year; missing -> it reads all logs), see load.ts and snapshot.ts.
 *
 * AFTER A GIT MERGE of two machines' banks (recover.ts): pages with conflict markers, or
 * listed stale by the merge driver, make the run read every log and render every page;
 * opinions the machines moved differently restart from their merge-base version.
 */
import { extractFromPastLogs } from "../llm/past-logs.js";
import { logDate } from "../markdown/log-path.js";
import { OPINIONS_PAGE } from "../markdown/pages.js";
import { parseSinceDate } from "../retain/dates.js";
import { entityKey, entitySpellings, respell, respellAll } from "../retain/entities.js";
import { noRetainNote } from "../retain/index.js";
import { workspaceDay } from "../workspace/clock.js";
import { MembankError } from "../workspace/errors.js";
import { noRepositoryNote } from "../workspace/git.js";
import { writeOwnedFiles } from "../workspace/owned.js";
import type { Workspace } from "../workspace/workspace.js";
import { factsAdded } from "./added.js";
import { assertPagesInside, assertWorkspaceOnDisk, checkGoneLogs } from "./checkout.js";
import { type EntityWorld, entityWorld, IncompleteProse } from "./entity-context.js";
import { evolveOpinions } from "./evolve.js";
import { saveFactMemo } from "./fact-memo.js";
import { proseFirst } from "./first-spelling.js";
import { assertGitCanCommit, commitPending, gitInit, isGitRepo, leftNote, unifiedDiff } from "./git.js";
import {
  aliasKey,
  applyAliases,
  type LoadedFacts,
  loadEntityPages,
  loadFacts,
  loadOldProse,
  loadOpinions,
  pagesOnDisk,
  readCoreMemory,
  saveSnapshot,
} from "./load.js";
import { commitMessage } from "./message.js";
import { movedKeys, nameDecisions } from "./name-decisions.js";
import { saveOpinionMemo } from "./opinion-memo.js";
import type { ProseLog } from "./prose.js";
import { loadProseMemo, saveProseMemo } from "./prose-memo.js";
import { leaveReadOnly } from "./read-only.js";
import { clearStale, recoverMerges } from "./recover.js";
import { relinkEvidence } from "./relink.js";
import { type Conflict, type RenderScope, renderBank } from "./render.js";
import { checkPutBack, putBackNote, saveMarkersAfter } from "./restored.js";
import { roleTies, tiedEntities } from "./role-ties.js";
import { incrementalScope } from "./scope.js";
import { KnownNames } from "./topic.js";
import { loadTopicMemo, saveTopicMemo } from "./topic-memo.js";
import type { ReflectOptions, ReflectReport } from "./types.js";

export type { Evidence, Opinion } from "../markdown/opinions.js";
export { parseOpinion, renderOpinion } from "../markdown/opinions.js";
export { assertWorkspaceOnDisk, NOT_ON_DISK } from "./checkout.js";
export { combineDay, evidenceWeight, nextConfidence } from "./confidence.js";
export type { OpinionChange } from "./evolve.js";
export { type CommitResult, commitPending, gitInit, isGitRepo, leftNote, unifiedDiff } from "./git.js";
export { heuristicJudge } from "./judge.js";
export { commitMessage } from "./message.js";
export type { Conflict } from "./render.js";

export type { ReflectOptions, ReflectReport } from "./types.js";

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

export async function reflect(ws: Workspace, opts: ReflectOptions = {}): Promise<ReflectReport> {
  const now = opts.now ?? new Date();
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (phase: string) => {
    const t = performance.now();
    timings[phase] = Math.round(t - mark);
    mark = t;
  };
  await assertWorkspaceOnDisk(ws);
  let since = opts.all || opts.since === undefined ? undefined : parseSinceDate(opts.since, workspaceDay(ws, now));
  // Logs of past days without a Retain section get an extracted one (append-only) before facts are read;
  // an incremental run then reaches back to the oldest log that changed.
  let extracted: string[] = [];
  if (opts.llm?.extractFacts && opts.extract !== false && !opts.dryRun) {
    extracted = (await extractFromPastLogs(ws, opts.llm, { before: workspaceDay(ws, now) })).changed;
    for (const p of extracted) {
      const day = logDate(p);
      if (since !== undefined && day !== undefined && day < since) since = day;
    }
  }
  // Pages a git merge touched (conflict markers, or the merge driver's stale list): the logs
  // now hold both machines' facts, so this run reads them all and rebuilds those regions.
  const merges = await recoverMerges(ws);
  if (merges.full) since = undefined;
  const conflicted = merges.skip.get(OPINIONS_PAGE);
  if (conflicted !== undefined || (opts.dryRun && merges.rewritten.has(OPINIONS_PAGE))) {
    throw new MembankError(
      conflicted !== undefined
        ? `${OPINIONS_PAGE}:${conflicted[0]}: git conflict markers in your text outside membank's regions; resolve them (the opinions inside the regions are rebuilt from the logs) and run again`
        : `${OPINIONS_PAGE} holds git conflict markers; run without --dry-run to rebuild it from the logs`,
      { code: "ECONFLICT" },
    );
  }
  const cfg = ws.config.reflect;
  const commitWanted = opts.commit !== false && cfg.git.commit;
  let repo: boolean | undefined;
  const repoReady = async (): Promise<boolean> => {
    if (repo !== undefined) return repo;
    repo = cfg.git.commit && (commitWanted || opts.commitLater === true);
    if (repo) {
      if (!(await isGitRepo(ws))) {
        if (opts.gitInit === true) await gitInit(ws);
        else repo = false;
      }
      // Mid-merge, mid-rebase, detached HEAD...: write nothing at all, the next run catches up.
      if (repo) await assertGitCanCommit(ws);
    }
    return repo;
  };
  const skip = new Set(merges.skip.keys());
  // A page its user made read-only is theirs: left as it is, said each run (read-only.ts).
  const readOnly = await leaveReadOnly(ws, skip, merges.notes);
  if (readOnly.full) since = undefined;
  if (merges.rewritten.size > 0) {
    if (opts.dryRun) for (const p of merges.rewritten.keys()) skip.add(p);
    else {
      // The merged page (markers gone) is membank's again: the render below starts from it.
      const record = await repoReady();
      await writeOwnedFiles(
        ws,
        [...merges.rewritten].map(([p, content]) => ({ path: p, content })),
        { record },
      );
    }
  }

  const entityPages = await loadEntityPages(ws);
  // Pages git put back since the last run (a revert of membank's commit): a full run (restored.ts).
  const markers = await checkPutBack(ws, entityPages.texts);
  if (markers.putBack.length > 0 && since !== undefined) {
    since = undefined;
    merges.notes.push(putBackNote(markers.putBack));
  }
  const aliases = aliasKey(entityPages.aliases);
  // The prose memo first: an old year it has a digest of is not read from the snapshot (load.ts).
  const memo = await loadProseMemo(ws);
  const loaded = await loadFacts(ws, since, aliases, opts.retained, (part) => memo.has(part));
  const vanishWarnings = await checkGoneLogs(ws, loaded, since, opts);
  // Case variants (@Peter, @peter, @PETER) are one entity with one page, under one spelling.
  const aliased = applyAliases(loaded.facts, entityPages.aliases);
  let spellings = entitySpellings(aliased, entityPages.texts.keys());
  let facts = respellAll(aliased, spellings);
  const state = await loadOpinions(ws, OPINIONS_PAGE, markers.pagesNow);
  // An opinion's names go through the aliases as its facts' do (a page renamed by hand: aliases.ts).
  for (const op of state.opinions)
    op.entities = respell(
      op.entities.map((e) => entityPages.aliases.get(e.toLowerCase()) ?? e),
      spellings,
    );
  if (merges.recompute.size > 0) {
    // Moved differently on two machines and no common state to start from (recover.ts): rebuilt
    // from every fact, oldest day first, as one machine would.
    state.opinions = state.opinions.filter((op) => !merges.recompute.has(op.id) || state.adopted.includes(op.id));
    merges.notes.push(
      `${OPINIONS_PAGE}: ${[...merges.recompute].sort().join(", ")} rebuilt from the evidence in the logs (the machines had moved them differently)`,
    );
  }

  const core = await readCoreMemory(ws);
  // "mum reckons ..." is Rita's when MEMORY.md says "Mum (Rita)": also an opinion a night before the tie made.
  const roles = roleTies(core.text);
  for (const op of state.opinions) op.entities = tiedEntities(op.entities, op.statement, roles);
  // Evidence links point at the line where each fact lives now (relink.ts).
  relinkEvidence(state.opinions, facts);

  lap("load");
  const topics = await loadTopicMemo(ws);
  const evolved = await evolveOpinions({
    opinions: state.opinions,
    facts: since === undefined ? facts : facts.filter((f) => f.date >= since),
    ...(opts.llm?.judge ? { judge: opts.llm.judge } : {}),
    constants: cfg.confidence,
    matching: cfg.matching,
    defaultConfidence: ws.config.retain.defaultConfidence,
    reserved: state.broken.map((b) => b.region),
    // Every fact's tags, also those before `since`: an incremental run reads plain-text mentions as a full run does.
    knownNames: KnownNames.fromFacts(facts, roles),
    topics,
  });
  // A name an opinion takes from its text ("@Noor: Priya reckons ...") is spelled as the facts
  // spell it (@PRIYA): else it would get a page of its own, Priya.md beside PRIYA.md.
  for (const op of evolved.opinions) {
    const names = respell(op.entities, spellings);
    if (names.length !== op.entities.length || names.some((e, i) => e !== op.entities[i])) op.entities = names;
  }

  lap("opinions");
  // What entity pages show beyond facts: MEMORY.md lines, prose mentions, prose-only entities.
  const today = workspaceDay(ws, now);
  const proseMemo = memo.at(loaded.kept);
  const worldOf = (prose: ProseLog[], unread: LoadedFacts["unread"]) =>
    entityWorld({
      facts,
      otherNames: evolved.opinions.flatMap((op) => op.entities),
      keptPages: entityPages.managed,
      prose,
      unread,
      core,
      aliases: entityPages.aliases,
      today,
      proseMemo,
    });
  let world: EntityWorld;
  try {
    world = worldOf(loaded.prose, loaded.unread);
  } catch (error) {
    if (!(error instanceof IncompleteProse)) throw error;
    // The memo cannot stand for the years not read: read them, and count every log again.
    // In the snapshot's year order, as if read with the rest (so its save keeps one part per year).
    const rank = new Map((loaded.kept?.parts ?? []).map((p, i) => [p.key, i]));
    const at = (log: ProseLog) => rank.get(log.date.slice(0, 4)) ?? Number.POSITIVE_INFINITY;
    loaded.prose = [...(await loadOldProse(ws, loaded.unread)), ...loaded.prose].sort((a, b) => at(a) - at(b));
    loaded.unread = [];
    world = worldOf(loaded.prose, []);
  }
  // A name the prose wrote before its first fact names its new page (first-spelling.ts): respelled, asked again.
  const earlier = proseFirst(facts, spellings, entityPages.texts.keys(), () => world.firstSpellings());
  if (earlier.size > 0) {
    spellings = entitySpellings(aliased, entityPages.texts.keys(), earlier);
    facts = respellAll(aliased, spellings);
    for (const op of evolved.opinions) op.entities = respell(op.entities, spellings);
    world = worldOf(loaded.prose, loaded.unread);
  }
  // An incremental run re-renders only what the window can have changed (scope.ts).
  let scope: RenderScope | undefined;
  // MEMORY.md changed, or no record of the last run's date: every page may show something new.
  const fresh = loaded.core !== core.text || loaded.asOf === undefined;
  // Lines of old logs the prose names' decisions moved to another page (name-decisions.ts).
  const names = nameDecisions(world.spellings(), world.knownKeys());
  const moved = since === undefined ? undefined : movedKeys(loaded.names, names);
  if (since !== undefined && !loaded.renderAll && !fresh && moved !== undefined) {
    scope = incrementalScope({
      since,
      today,
      loaded,
      facts,
      aliases: entityPages.aliases,
      spellings,
      opinions: evolved.opinions,
      moved: new Set([...evolved.touched, ...state.adopted]),
      managed: entityPages.managed,
      world,
      namesMoved: moved,
      core: core.text,
    });
    if (moved.size > 0)
      for (const name of [...facts.flatMap((f) => f.entities), ...world.proseOnly, ...entityPages.managed])
        if (moved.has(entityKey(name))) scope.entities.add(name);
    world.focus([...scope.entities, ...(scope.mentions ?? [])]);
  }

  const rendered = await renderBank({
    ...(scope ? { scope } : {}),
    ws,
    facts,
    opinions: evolved.opinions,
    ...(state.text === undefined ? {} : { opinionsText: state.text, opinionRegions: state.kept }),
    adopted: new Set(state.adopted),
    entityTexts: entityPages.texts,
    ...(opts.llm ? { llm: opts.llm } : {}),
    skip,
    world,
    today,
    pageTexts: markers.pagesNow,
    core: core.text,
  });
  rendered.pages = pagesOnDisk(rendered.pages, entityPages.onDisk);
  lap("render");
  const conflicts: Conflict[] = [
    ...state.broken.map((b) => ({ path: OPINIONS_PAGE, region: b.region, reason: b.reason })),
    ...rendered.conflicts.filter((c) => !state.broken.some((b) => b.region === c.region && c.path === OPINIONS_PAGE)),
  ];

  // New in this run (added.ts): what the commit message and the report count as added.
  const added = await factsAdded(ws, {
    facts,
    since: loaded.fellBackToFull ? undefined : since,
    windowBefore: loaded.windowBefore,
    pages: rendered.pages,
    oldTexts: [...entityPages.texts.values(), state.text ?? ""],
  });

  const createdSet = new Set(evolved.created);
  const report: ReflectReport = {
    mode: since === undefined || loaded.fellBackToFull ? "full" : "incremental",
    ...(since === undefined ? {} : { since }),
    factsRead: loaded.read,
    logsRead: loaded.files,
    logsWithoutRetain: loaded.noRetain,
    ...optional(
      "noRetainNote",
      noRetainNote(loaded.noRetain, loaded.files, { llm: opts.llm?.extractFacts !== undefined }),
    ),
    factsTotal: facts.length,
    factsAdded: rendered.pages.length === 0 ? 0 : added.length,
    pagesWritten: rendered.pages.map((p) => p.path).sort(),
    extracted,
    opinionsCreated: evolved.opinions
      .filter((op) => createdSet.has(op.id))
      .map((op) => ({
        id: op.id,
        statement: op.statement,
        entities: op.entities,
        initial: evolved.initial.get(op.id) ?? op.confidence,
        confidence: op.confidence,
      })),
    opinionsChanged: evolved.changed,
    conflicts,
    adoptedEdits: state.adopted,
    diagnostics: [...entityPages.diagnostics, ...loaded.diagnostics],
    warnings: [
      ...entityPages.notes,
      ...world.notes,
      ...vanishWarnings,
      ...merges.notes,
      ...evolved.warnings,
      ...rendered.warnings,
      ...(opts.llm?.warnings ?? []),
    ],
    aliasSuggestions: world.suggestions,
    judge: opts.llm?.judge?.id ?? "heuristic-v1",
    message: "",
    timings,
  };
  report.message = commitMessage(report, rendered.pages.length === 0 ? [] : added);

  assertPagesInside(ws, rendered.pages);

  if (opts.dryRun) {
    report.diff = await unifiedDiff(rendered.pages);
    if (rendered.pages.length > 0) report.commitsOff = "dry run";
    return report;
  }

  // Pages are recorded as membank's (path, hash before, hash written) before they are
  // written, so a run that dies before its commit is caught up by the next one, and only
  // bytes membank wrote are ever committed (workspace/owned.ts, reflect/git.ts).
  await repoReady();
  await writeOwnedFiles(
    ws,
    rendered.pages.map((p) => ({ path: p.path, content: p.after, expect: p.before })),
    { record: repo === true },
  );
  const parts = await saveSnapshot(ws, loaded, aliases, {
    prose: loaded.prose,
    asOf: today,
    core: core.text,
    names,
  });
  await saveMarkersAfter(ws, markers, rendered.pages);
  await saveFactMemo(ws, rendered.memo);
  await saveOpinionMemo(ws, rendered.opinionMemo);
  await saveTopicMemo(ws, topics);
  proseMemo.settle(parts);
  await saveProseMemo(ws, proseMemo);
  if (merges.full) await clearStale(ws);
  await readOnly.save();
  lap("write");

  if (!commitWanted) {
    if (rendered.pages.length > 0)
      report.commitsOff = opts.commit === false ? "--no-commit" : "config reflect.git.commit is false";
    return report;
  }
  if (!repo) {
    if (rendered.pages.length > 0) report.commitsOff = `${noRepositoryNote(ws.root)} (run \`git init\`, or --git-init)`;
    return report;
  }
  const result = await commitPending(ws, (committed) => commitMessage({ ...report, pagesWritten: committed }, added));
  lap("commit");
  const recovered = result.committed.filter(
    (p) => !report.pagesWritten.includes(p) && !extracted.includes(p) && !merges.rewritten.has(p),
  );
  if (recovered.length > 0) {
    report.warnings.push(`committed ${recovered.length} file(s) an interrupted run wrote: ${recovered.join(", ")}`);
  }
  report.left = result.left;
  for (const l of result.left) report.warnings.push(leftNote(l));
  if (result.commit) report.commit = result.commit;
  return report;
}
