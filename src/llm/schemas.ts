import { z } from "zod";

/**
 * The shapes every LLM answer must have. Each task has a zod schema (the validation that
 * decides whether an answer is used) and the same shape as a plain JSON schema (sent to
 * the local model as a grammar, so its output is constrained at generation time; also
 * shown to remote models in the prompt).
 */

/** One line, trimmed, inner whitespace collapsed: answers become single Markdown lines. */
const oneLine = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1).max(max));

export const judgementAnswer = z.object({
  stance: z.enum(["support", "contradict", "unrelated"]),
  strength: z.number().min(0).max(1),
  reason: oneLine(300),
});

export const judgementJsonSchema = {
  type: "object",
  properties: {
    stance: { enum: ["support", "contradict", "unrelated"] },
    strength: { type: "number" },
    reason: { type: "string", maxLength: 300 },
  },
  required: ["stance", "strength", "reason"],
  additionalProperties: false,
} as const;

/** Sentence ends: a period, ! or ? followed by a space or the end (abbreviations may overcount slightly). */
function sentenceCount(text: string): number {
  return text.split(/[.!?]+(?:\s+|$)/).filter((part) => part.trim() !== "").length;
}

export const summaryAnswer = z.object({
  summary: oneLine(600).refine((s) => sentenceCount(s) <= 3, { message: "summary must be 1-3 sentences" }),
});

export const summaryJsonSchema = {
  type: "object",
  properties: { summary: { type: "string", maxLength: 600 } },
  required: ["summary"],
  additionalProperties: false,
} as const;

/**
 * An entity as the model names it. Spaces become dashes later (formatRetainLine), so
 * "Priya Sharma" is fine here; a leading `@` is tolerated and dropped.
 */
const entityName = z
  .string()
  .transform((s) => s.trim().replace(/^@+/, "").trim())
  .pipe(z.string().min(1).max(80));

export const extractedFactAnswer = z.object({
  kind: z.enum(["W", "B", "O", "S"]),
  entities: z.array(entityName).max(8),
  /** Only meaningful for opinions; models may send null for the others. */
  confidence: z.number().min(0).max(1).nullable().optional(),
  content: oneLine(500),
});

export const extractionAnswer = z.object({ facts: z.array(extractedFactAnswer).max(100) });

export const extractionJsonSchema = {
  type: "object",
  properties: {
    facts: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        properties: {
          kind: { enum: ["W", "B", "O", "S"] },
          entities: { type: "array", maxItems: 8, items: { type: "string", maxLength: 80 } },
          confidence: { type: ["number", "null"] },
          content: { type: "string", maxLength: 500 },
        },
        required: ["kind", "entities", "confidence", "content"],
        additionalProperties: false,
      },
    },
  },
  required: ["facts"],
  additionalProperties: false,
} as const;

/**
 * Pull the JSON object out of a model's text: the whole text when it is JSON, else the
 * span from the first `{` to the last `}` (models sometimes wrap JSON in prose or a
 * ``` fence). Returns undefined when there is no parseable object.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    // fall through to the span search
  }
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(trimmed.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

/** Validate a raw answer text against a schema: the value, or a short reason it is unusable. */
export function validateAnswer<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  text: string,
): { ok: true; value: T } | { ok: false; reason: string } {
  const json = extractJson(text);
  if (json === undefined) return { ok: false, reason: "answer is not JSON" };
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { ok: false, reason: `${where}${issue?.message ?? "invalid"}` };
}
