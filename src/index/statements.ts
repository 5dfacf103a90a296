import type Database from "better-sqlite3";

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement compiled once per connection: recall asks many small queries per
 * call, and compiling them each time cost ~7% of a call. The statement comes back in its
 * default mode (not plucked), so a caller that plucks cannot leak that into another.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) {
    m = new Map();
    cache.set(db, m);
  }
  let s = m.get(sql);
  if (!s) {
    s = db.prepare(sql);
    m.set(sql, s);
  } else if (s.reader) {
    s.pluck(false);
  }
  return s;
}
