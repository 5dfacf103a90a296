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
}

const ID_SAFE = /[^A-Za-z0-9_.:-]/g;

export function opinionIdFor(factId: string): string {
  return `op-${factId.replace(ID_SAFE, "_")}`;
}

export const fmt2 = (c: number): string => c.toFixed(2);

function evidenceLine(ev: Evidence): string {
  const where = `${ev.source.path}#L${ev.source.line}`;
  const text = ev.content ? ` — ${ev.content.replace(/\s+/g, " ").trim()}` : "";
  const gone = ev.gone ? ` ${GONE}` : "";
  return `  - ${ev.date} [${where}](${relLink("bank/opinions.md", ev.source)}) \`${ev.factId}\`${gone}${text}`;
}

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
  const lines = [
    `### ${op.statement}`,
    "",
    `- id: \`${op.id}\``,
    `- entities: ${op.entities.length ? op.entities.map((e) => `@${e}`).join(", ") : "none"}`,
    `- confidence: ${fmt2(op.confidence)}${op.previous === undefined ? "" : ` (previous ${fmt2(op.previous)})`}`,
    `- first stated: ${op.created}`,
    `- last updated: ${op.lastUpdated}`,
  ];
  lines.push(sup.length ? `- supporting (${plural(distinctDays(sup), "day")}):` : "- supporting: none");
  for (const ev of sup) lines.push(evidenceLine(ev));
  lines.push(con.length ? `- contradicting (${plural(distinctDays(con), "day")}):` : "- contradicting: none");
  for (const ev of con) lines.push(evidenceLine(ev));
  return `${lines.join("\n")}\n`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const GONE = "(no longer in the log)";
const EVIDENCE =
  /^\s+- (\d{4}-\d{2}-\d{2}) \[([^\]#]+)#L(\d+)\]\([^)]*\) `([^`]+)`( \(no longer in the log\))?(?: — (.*))?$/;

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
        case "confidence": {
          const m = /^([0-9]*\.?[0-9]+)(?:\s*\(previous ([0-9]*\.?[0-9]+)\))?\s*$/.exec(value.trim());
          if (!m) return `${where}: confidence must be a number between 0 and 1, got "${value.trim()}"`;
          confidence = Number(m[1]);
          if (m[2] !== undefined) previous = Number(m[2]);
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
      if (ev[6]) item.content = ev[6];
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
  return op;
}
