import { citeLine } from "./citation.js";
import { cmp, type LineRef, relLink } from "./links.js";

/**
 * The opinion state and its text form in bank/opinions.md. The file IS the state:
 * every field below is written in one managed region per opinion and parsed back on the
 * next run, so a person's edit of a confidence becomes the next run's starting point.
 * Pure format code: reflect writes and reads it, the index reads it (for recall).
 */

export interface Evidence {
  factId: string;
  date: string;
  stance: "support" | "contradict";
  source: LineRef;
  /** Fact text at the time of writing, for reviewers (not parsed back). */
  content?: string;
  /** The fact is no longer in its log (the line was deleted or reworded): kept as history, marked. */
  gone?: true;
  /** How strongly it bore on the opinion, 0..1 (the judge's strength). */
  strength?: number;
  /** The move it made: the day's confidence before and after (set on the row that decided the day). */
  from?: number;
  to?: number;
  /** Why, in words: `restated at 0.50 < 0.80`, `cue "no longer"`. */
  reason?: string;
}

/** One step of an opinion's trajectory: its confidence after the evidence of `date`. */
export interface PathPoint {
  date: string;
  confidence: number;
  /** The first point came from the configured default (the origin fact had no `c=`). */
  default?: true;
  /** Set by a person on the page, not by evidence. */
  byHand?: true;
}

export interface Opinion {
  /** `op-<fact id of the fact that first stated it>`; also the region name. */
  id: string;
  statement: string;
  entities: string[];
  confidence: number;
  previous?: number;
  lastUpdated: string;
  /** Date the opinion was first stated (its origin fact's date). */
  created: string;
  evidence: Evidence[];
  /**
   * The trajectory, oldest first: the first point is the first statement, then one point
   * per day that moved the confidence. Long paths keep the first point and the last
   * PATH_TAIL ones (`elided` marks the gap).
   */
  path?: PathPoint[];
  elided?: true;
}

/** How many of the latest trajectory points the page keeps after the first one. */
export const PATH_TAIL = 9;

/**
 * Where an opinion stands, from its first value to its current one:
 * - reversed: it crossed 0.5 (held became doubted, or the other way round);
 * - weakened: it lost at least STATUS_DELTA since it was first stated;
 * - strengthened: it gained at least STATUS_DELTA;
 * - holding: otherwise.
 */
export type OpinionStatus = "holding" | "weakened" | "strengthened" | "reversed";
export const STATUS_DELTA = 0.1;

export function opinionStatus(op: Pick<Opinion, "confidence" | "path">): OpinionStatus {
  const first = op.path?.[0]?.confidence ?? op.confidence;
  const now = op.confidence;
  if ((first >= 0.5 && now < 0.5) || (first < 0.5 && now >= 0.5 && first !== now)) return "reversed";
  if (now <= first - STATUS_DELTA + 1e-9) return "weakened";
  if (now >= first + STATUS_DELTA - 1e-9) return "strengthened";
  return "holding";
}

/** The path as the page shows it, with a point for a confidence a person set by hand. */
export function displayPath(op: Pick<Opinion, "confidence" | "path" | "lastUpdated">): PathPoint[] {
  const path = op.path?.length ? [...op.path] : [{ date: op.lastUpdated, confidence: op.confidence }];
  const last = path.at(-1)!;
  if (last.confidence !== op.confidence) path.push({ date: last.date, confidence: op.confidence, byHand: true });
  return path;
}

/** Keep the first point and the last PATH_TAIL (the same cut whether applied once or after every append). */
export function trimPath(path: PathPoint[], elided: boolean): { path: PathPoint[]; elided: boolean } {
  if (path.length <= PATH_TAIL + 1) return { path, elided };
  return { path: [path[0]!, ...path.slice(-PATH_TAIL)], elided: true };
}

/** The trajectory line of an opinion: `0.80 (2026-03-03) -> 0.62 (03-11) -> 0.40 (by hand)`. */
export function trajectoryText(op: Pick<Opinion, "confidence" | "path" | "lastUpdated" | "elided">): string {
  return pathText(displayPath(op), op.elided === true);
}

function pathText(points: PathPoint[], elided: boolean): string {
  const out: string[] = [];
  let year = "";
  for (const [i, p] of points.entries()) {
    let label: string;
    if (p.byHand) label = "by hand";
    else {
      label = p.date.slice(0, 4) === year ? p.date.slice(5) : p.date;
      year = p.date.slice(0, 4);
      if (p.default) label += ", default";
    }
    out.push(`${fmt2(p.confidence)} (${label})`);
    if (i === 0 && elided) out.push("…");
  }
  return out.join(" -> ");
}

/** Parse `0.80 (2026-03-03) -> … -> 0.62 (03-11) -> 0.40 (by hand)`; undefined when it does not read. */
function parsePath(text: string): { path: PathPoint[]; elided: boolean } | undefined {
  const path: PathPoint[] = [];
  let elided = false;
  let year = "";
  let date = "";
  for (const part of text.split(" -> ")) {
    const item = part.trim();
    if (item === "…" || item === "...") {
      elided = true;
      continue;
    }
    const m = /^([0-9]*\.?[0-9]+) \((by hand|(\d{4}-)?(\d{2}-\d{2})(, default)?)\)$/.exec(item);
    if (!m) return undefined;
    const confidence = Number(m[1]);
    if (!(confidence >= 0 && confidence <= 1)) return undefined;
    if (m[2] === "by hand") {
      path.push({ date, confidence, byHand: true });
      continue;
    }
    if (m[3]) year = m[3].slice(0, 4);
    if (!year) return undefined;
    date = `${year}-${m[4]}`;
    const point: PathPoint = { date, confidence };
    if (m[5]) point.default = true;
    path.push(point);
  }
  return path.length ? { path, elided } : undefined;
}

const ID_SAFE = /[^A-Za-z0-9_.:-]/g;

export function opinionIdFor(factId: string): string {
  return `op-${factId.replace(ID_SAFE, "_")}`;
}

export const fmt2 = (c: number): string => c.toFixed(2);

function evidenceLine(ev: Evidence): string {
  const where = citeLine(ev.source);
  const text = ev.content ? ` — ${ev.content.replace(/\s+/g, " ").trim()}` : "";
  const gone = ev.gone ? ` ${GONE}` : "";
  return `  - ${ev.date} [${where}](${relLink("bank/opinions.md", ev.source)}) \`${ev.factId}\`${gone}${detail(ev)}${text}`;
}

/** ` contradicts 0.90, 0.80 -> 0.70: cue "no longer"`: stance, strength, the move it made, why. */
function detail(ev: Evidence): string {
  if (ev.strength === undefined && ev.reason === undefined) return "";
  const verb = ev.stance === "support" ? "supports" : "contradicts";
  if (ev.strength === undefined) return ` ${verb}: ${clean(ev.reason!)}`;
  const move = ev.from !== undefined && ev.to !== undefined ? `, ${fmt2(ev.from)} -> ${fmt2(ev.to)}` : "";
  const why = ev.reason ? `: ${clean(ev.reason)}` : "";
  return ` ${verb} ${fmt2(ev.strength)}${move}${why}`;
}

/** A reason on one line, without the " — " that starts the fact's text. */
const clean = (reason: string) => reason.replace(/\s+/g, " ").replace(/—/g, "-").trim();

function distinctDays(list: Evidence[]): number {
  return new Set(list.map((e) => e.date)).size;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Evidence in a stable order: date, then source, then id. */
export function sortEvidence(list: Evidence[]): Evidence[] {
  return [...list].sort(
    (a, b) =>
      cmp(a.date, b.date) ||
      cmp(a.source.path, b.source.path) ||
      a.source.line - b.source.line ||
      cmp(a.factId, b.factId),
  );
}

/** The region body of one opinion. */
export function renderOpinion(op: Opinion): string {
  const sup = sortEvidence(op.evidence.filter((e) => e.stance === "support"));
  const con = sortEvidence(op.evidence.filter((e) => e.stance === "contradict"));
  const path = displayPath(op);
  const isDefault = path.length === 1 && path[0]!.default === true;
  const note =
    op.previous !== undefined
      ? ` (last change: ${fmt2(op.previous)} -> ${fmt2(op.confidence)})`
      : isDefault
        ? " (default: the first statement gave no c=)"
        : "";
  const lines = [
    `### ${op.statement}`,
    "",
    `- id: \`${op.id}\``,
    `- entities: ${op.entities.length ? op.entities.map((e) => `@${e}`).join(", ") : "none"}`,
    `- confidence: ${fmt2(op.confidence)}${note}`,
  ];
  if (op.path?.length) {
    lines.push(`- status: ${opinionStatus(op)}`, `- path: ${pathText(path, op.elided === true)}`);
  }
  lines.push(`- first stated: ${op.created}`, `- last updated: ${op.lastUpdated}`);
  lines.push(sup.length ? `- supporting (${plural(distinctDays(sup), "day")}):` : "- supporting: none");
  for (const ev of sup) lines.push(evidenceLine(ev));
  lines.push(con.length ? `- contradicting (${plural(distinctDays(con), "day")}):` : "- contradicting: none");
  for (const ev of con) lines.push(evidenceLine(ev));
  return `${lines.join("\n")}\n`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const GONE = "(no longer in the log)";
const EVIDENCE =
  /^\s+- (\d{4}-\d{2}-\d{2}) \[([^\]#]+)#L(\d+)\]\([^)]*\) `([^`]+)`( \(no longer in the log\))?(?: (?:supports|contradicts)(?: ([0-9]*\.?[0-9]+))?(?:, ([0-9]*\.?[0-9]+) -> ([0-9]*\.?[0-9]+))?(?:: ([^—]*?))?)?(?: — (.*))?$/;

/**
 * Parse an opinion region back. Returns an error message instead of throwing so the
 * caller can report the region as a conflict and keep the human text.
 */
export function parseOpinion(name: string, body: string): Opinion | string {
  let statement: string | undefined;
  let id: string | undefined;
  let entities: string[] | undefined;
  let confidence: number | undefined;
  let previous: number | undefined;
  let created: string | undefined;
  let lastUpdated: string | undefined;
  let path: { path: PathPoint[]; elided: boolean } | undefined;
  let list: "support" | "contradict" | undefined;
  const evidence: Evidence[] = [];
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const where = `line ${i + 1} of region ${name}`;
    if (line.startsWith("### ")) {
      statement = line.slice(4).trim();
      continue;
    }
    const field = /^- ([a-z ]+?)(?: \([^)]*\))?:\s*(.*)$/.exec(line);
    if (field) {
      const [, key, value] = field as unknown as [string, string, string];
      list = undefined;
      switch (key) {
        case "id":
          id = value.replace(/`/g, "").trim();
          break;
        case "entities":
          entities = value.trim() === "none" ? [] : [...value.matchAll(/@([^\s,]+)/g)].map((m) => m[1]!);
          break;
        case "status":
          break; // derived from the path and the confidence (opinionStatus)
        case "path":
          path = parsePath(value.trim());
          if (!path)
            return `${where}: cannot read the path "${value.trim()}" (write it as 0.80 (2026-03-03) -> 0.62 (03-11))`;
          break;
        case "confidence": {
          const m =
            /^([0-9]*\.?[0-9]+)(?:\s*\((?:previous ([0-9]*\.?[0-9]+)|last change: ([0-9]*\.?[0-9]+) -> [0-9]*\.?[0-9]+|default: [^)]*)\))?\s*$/.exec(
              value.trim(),
            );
          if (!m) return `${where}: confidence must be a number between 0 and 1, got "${value.trim()}"`;
          confidence = Number(m[1]);
          if (m[2] !== undefined) previous = Number(m[2]);
          if (m[3] !== undefined) previous = Number(m[3]);
          if (!(confidence >= 0 && confidence <= 1)) return `${where}: confidence ${m[1]} is outside 0..1`;
          break;
        }
        case "first stated":
          created = value.trim();
          break;
        case "last updated":
          lastUpdated = value.trim();
          break;
        case "supporting":
          list = value.trim() === "none" ? undefined : "support";
          break;
        case "contradicting":
          list = value.trim() === "none" ? undefined : "contradict";
          break;
        default:
          return `${where}: unknown field "${key}"`;
      }
      continue;
    }
    const ev = EVIDENCE.exec(line);
    if (ev && list) {
      const item: Evidence = {
        date: ev[1]!,
        source: { path: ev[2]!, line: Number(ev[3]) },
        factId: ev[4]!,
        stance: list,
      };
      if (ev[5]) item.gone = true;
      if (ev[6] !== undefined) item.strength = Number(ev[6]);
      if (ev[7] !== undefined && ev[8] !== undefined) {
        item.from = Number(ev[7]);
        item.to = Number(ev[8]);
      }
      if (ev[9]) item.reason = ev[9];
      if (ev[10]) item.content = ev[10];
      evidence.push(item);
      continue;
    }
    return `${where}: cannot read "${line.trim()}"`;
  }
  if (!statement) return `region ${name}: no "### statement" heading`;
  if (!id) return `region ${name}: no "- id:" line`;
  if (confidence === undefined) return `region ${name}: no "- confidence:" line`;
  if (!created || !DATE.test(created)) return `region ${name}: "- first stated:" must be a date YYYY-MM-DD`;
  if (!lastUpdated || !DATE.test(lastUpdated)) return `region ${name}: "- last updated:" must be a date YYYY-MM-DD`;
  const op: Opinion = {
    id,
    statement,
    entities: entities ?? [],
    confidence,
    lastUpdated,
    created,
    evidence,
  };
  if (previous !== undefined) op.previous = previous;
  if (path) {
    op.path = path.path;
    if (path.elided) op.elided = true;
  }
  return op;
}
