/**
 * Calendar day and clock time of a timestamp in one time zone. Every day boundary of session
 * ingestion goes through here so the whole pipeline agrees on what "yesterday" is, and so
 * does every "today" of a run (the nightly's commit, entity pages' upcoming/past, which logs
 * are past): the workspace's zone, not UTC, or a user in UTC-10 or UTC+13 is a day off.
 */
import { MembankError } from "./errors.js";
import type { Workspace } from "./workspace.js";

export interface Clock {
  /** IANA zone name, or "local". */
  readonly zone: string;
  day(ts: number): string;
  /** HH:MM:SS */
  time(ts: number): string;
}

const HOUR = 3_600_000;

export function createClock(tz?: string): Clock {
  if (tz === undefined) return localClock();
  return UTC_NAMES.has(tz.toLowerCase()) ? utcClock(tz) : zoneClock(tz);
}

/** Zone names that are UTC itself (as Intl reads them, in any case). */
const UTC_NAMES = new Set(["utc", "etc/utc", "gmt", "etc/gmt", "uct", "etc/uct", "zulu", "etc/zulu"]);

const two = (n: number) => String(n).padStart(2, "0");

/**
 * UTC, a common setting on servers, from Date's UTC fields: no Intl.DateTimeFormat (see
 * localClock). Years outside 1000-9999 go by Intl, as zoneClock does.
 */
function utcClock(tz: string): Clock {
  let intl: Clock | undefined;
  function parts(ts: number): { day: string; time: string } {
    const d = new Date(Math.floor(ts));
    const year = d.getUTCFullYear();
    if (!(year >= 1000 && year <= 9999)) {
      intl ??= zoneClock(tz);
      return { day: intl.day(ts), time: intl.time(ts) };
    }
    return {
      day: `${year}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
      time: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
    };
  }
  return { zone: tz, day: (ts) => parts(ts).day, time: (ts) => parts(ts).time };
}

/**
 * The machine's zone, from Date's local fields: the same ICU zone Intl's default is, without
 * an Intl.DateTimeFormat, whose first one in a process loads ICU's locale data (~25 ms of CPU
 * at every nightly's start, which needs Intl for nothing else). Years outside 1000-9999 go by
 * Intl, as zoneClock does.
 */
function localClock(): Clock {
  let intl: Clock | undefined;
  function parts(ts: number): { day: string; time: string } {
    const d = new Date(Math.floor(ts));
    const year = d.getFullYear();
    if (!(year >= 1000 && year <= 9999)) {
      intl ??= zoneClock(undefined);
      return { day: intl.day(ts), time: intl.time(ts) };
    }
    return {
      day: `${year}-${two(d.getMonth() + 1)}-${two(d.getDate())}`,
      time: `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`,
    };
  }
  return {
    get zone() {
      return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "local";
    },
    day: (ts) => parts(ts).day,
    time: (ts) => parts(ts).time,
  };
}

/** A zone's clock through Intl (undefined: the machine's zone). */
function zoneClock(tz: string | undefined): Clock {
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
  const fields = (ms: number): Record<string, string> => {
    const p: Record<string, string> = {};
    for (const part of fmt.formatToParts(new Date(ms))) p[part.type] = part.value;
    return p;
  };
  // formatToParts costs ~40 us: one per message was most of a 2,000-message ingest. A zone's
  // offset is fixed for an hour except across a transition, so it is read at both ends of each
  // hour and the fields come from arithmetic; an hour holding a transition goes by the second.
  const offsets = new Map<number, number | null>();
  const offsetAt = (ms: number): number | null => {
    const p = fields(ms);
    const year = Number(p.year);
    if (!(year >= 1000 && year <= 9999)) return null; // Date.UTC and the padding below hold for these
    const local = Date.UTC(
      year,
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour),
      Number(p.minute),
      Number(p.second),
    );
    return local - ms;
  };
  const bySecond = new Map<number, { day: string; time: string }>();
  function parts(ts: number): { day: string; time: string } {
    const second = Math.floor(ts / 1000) * 1000;
    const hour = Math.floor(second / HOUR) * HOUR;
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const start = offsetAt(hour);
      offset = start !== null && start === offsetAt(hour + HOUR - 1000) ? start : null;
      if (offsets.size > 50_000) offsets.clear();
      offsets.set(hour, offset);
    }
    if (offset !== null) {
      const d = new Date(second + offset);
      return {
        day: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
        time: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
      };
    }
    let hit = bySecond.get(second);
    if (!hit) {
      const p = fields(second);
      hit = { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
      if (bySecond.size > 50_000) bySecond.clear();
      bySecond.set(second, hit);
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
