/**
 * Calendar day and clock time of a timestamp in one time zone. Every day boundary of session
 * ingestion goes through here so the whole pipeline agrees on what "yesterday" is, and so
 * does every "today" of a run (the nightly's commit, entity pages' upcoming/past, which logs
 * are past): the workspace's zone, not UTC, or a user in UTC-10 or UTC+13 is a day off.
 */
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";

export interface Clock {
  /** IANA zone name, or "local". */
  readonly zone: string;
  day(ts: number): string;
  /** HH:MM:SS */
  time(ts: number): string;
}

export function createClock(tz?: string): Clock {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat("en-CA", {
      ...(tz ? { timeZone: tz } : {}),
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
  } catch {
    throw new RangeError(`unknown time zone ${JSON.stringify(tz)}`);
  }
  const zone = tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "local";
  // One formatToParts per message is the cost that matters with thousands of messages: memoise by second.
  const cache = new Map<number, { day: string; time: string }>();
  function parts(ts: number): { day: string; time: string } {
    const key = Math.floor(ts / 1000);
    let hit = cache.get(key);
    if (!hit) {
      const p: Record<string, string> = {};
      for (const part of fmt.formatToParts(new Date(key * 1000))) p[part.type] = part.value;
      hit = { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
      if (cache.size > 50_000) cache.clear();
      cache.set(key, hit);
    }
    return hit;
  }
  return { zone, day: (ts) => parts(ts).day, time: (ts) => parts(ts).time };
}

/** The zone that decides days: sessions.tz, then schedule.tz, then the machine's zone. */
export function sessionsClock(ws: Workspace): Clock {
  const tz = ws.config.sessions.tz ?? ws.config.schedule.tz;
  try {
    return createClock(tz);
  } catch {
    throw new MembankError(`Unknown time zone ${JSON.stringify(tz)} in sessions.tz / schedule.tz.`, {
      code: "ECONFIG",
    });
  }
}

/** The calendar day (YYYY-MM-DD) of `now` where the workspace's person lives (see sessionsClock). */
export function workspaceDay(ws: Workspace, now: Date): string {
  return sessionsClock(ws).day(now.getTime());
}
