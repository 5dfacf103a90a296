/**
 * Peak memory of a pipeline run: a step's garbage (reflect leaves ~90 MB of it on 10 years,
 * with ~18 MB still in use) stays in V8's heap until the heap grows enough for a full
 * collection, so the next step's allocations pile on top of it and the run's peak RSS is the
 * sum of two steps. A full collection between steps, only when the heap is large, makes the
 * peak the largest single step's.
 */
import v8 from "node:v8";
import vm from "node:vm";

/** Collect only above this much JS heap in use (a small heap is not worth a full GC's pause). */
export const RELEASE_THRESHOLD_BYTES = 48 * 1024 * 1024;

let collect: (() => void) | null | undefined;

/** V8's full collection: `--expose-gc` set at run time shows `gc` in contexts made afterwards. */
function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc") as unknown;
      // The flag back as it was (the function stays usable): V8 code caches carry a hash of
      // the flags, and the CLI's cache written at exit with the flag on was rejected at every
      // next start, so each nightly compiled the whole bundle again (~50 ms) and rewrote it.
      v8.setFlagsFromString("--no-expose-gc");
      collect = typeof gc === "function" ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** A full GC when more than `threshold` bytes of JS heap are in use; true when it ran. */
export function releaseGarbage(threshold = RELEASE_THRESHOLD_BYTES): boolean {
  if (v8.getHeapStatistics().used_heap_size < threshold) return false;
  const gc = collector();
  if (gc === null) return false;
  gc();
  return true;
}

/** V8's default (Node 20-24): the young generation's two semi-spaces double when a scavenge finds them busy. */
const DEFAULT_GROWTH = 2;
/** The user's own setting of the young generation (NODE_OPTIONS, node's flags) is left alone. */
const userSetsYoungGeneration = () =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((a) => a.includes("semi-space"));

/**
 * Keep the young generation at its size for a run; returns the undo. V8 doubles its
 * semi-spaces while scavenges find many survivors, and reflect's load (ten years of facts)
 * grows them to 2 x 16 MB; that space stays committed through commit and index. Held at its
 * size (--semi-space-growth-factor=1, a flag V8 reads at each growth), the nightly's peak RSS
 * on 10 years went 152-155 -> 135-144 MB at the same CPU (more scavenges of a small young
 * generation, fewer pages touched). Set back after: V8 code caches carry a hash of the flags
 * (the CLI's cache, written at exit, would be rejected at the next start; see collector()).
 */
export function holdYoungGeneration(): () => void {
  if (userSetsYoungGeneration()) return () => {};
  try {
    v8.setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    return () => {};
  }
  return () => v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH}`);
}
