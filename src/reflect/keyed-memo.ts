import { readFile } from "node:fs/promises";

/** The file shape of the reflect memos keyed by id: one entry per id, in the same order. */
export interface KeyedMemoFile<E> {
  version: number;
  code: string;
  ids: string[];
  entries: E[];
}

/**
 * The entries of a keyed memo file, or undefined when the file is missing, of another version
 * or deriving code, or corrupt: a memo is derived data, so any doubt means derive again.
 */
export async function readKeyedMemo<E>(
  file: string,
  version: number,
  code: string,
): Promise<Map<string, E> | undefined> {
  try {
    const memo = JSON.parse(await readFile(file, "utf8")) as Partial<KeyedMemoFile<E>> | null;
    if (
      memo?.version === version &&
      memo.code === code &&
      Array.isArray(memo.ids) &&
      Array.isArray(memo.entries) &&
      memo.ids.length === memo.entries.length
    )
      return new Map(memo.ids.map((id, i) => [String(id), memo.entries![i]!]));
  } catch {
    // missing or corrupt
  }
  return undefined;
}

/** Did this run leave out an id the stored memo has (an entry to drop, so a rewrite)? */
export function dropsStored(
  stored: ReadonlyMap<string, unknown> | undefined,
  asked: ReadonlyMap<string, unknown>,
): boolean {
  for (const id of stored?.keys() ?? []) if (!asked.has(id)) return true;
  return false;
}

/** A keyed memo file's text, its entries in the order they were asked for: same run, same bytes. */
export function serialiseKeyedMemo<E>(version: number, code: string, entries: ReadonlyMap<string, E>): string {
  const ids = [...entries.keys()];
  return JSON.stringify({ version, code, ids, entries: ids.map((id) => entries.get(id)!) } satisfies KeyedMemoFile<E>);
}
