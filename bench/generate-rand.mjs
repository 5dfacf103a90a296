// Seeded PRNG streams for the synthetic corpus generator: same seed and key, same numbers,
// on every platform and Node version (no Math.random, no locale).

/** mulberry32: tiny, fast, good enough for corpus text; identical on every platform. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small helper around one PRNG stream. */
export class Rand {
  constructor(seed, key) {
    this.next = mulberry32(fnv1a(`${seed}:${key}`));
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p) {
    return this.next() < p;
  }
  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Zipf-like: early items are picked much more often (recurring main characters). */
  skewed(items) {
    const r = this.next();
    return items[Math.floor(items.length * r * r)];
  }
  hex(n) {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(this.next() * 16)];
    return s;
  }
}
