import { closeSync, openSync, readSync } from "node:fs";

/**
 * Read a GGUF file's architecture and embedding size from its header without loading
 * node-llama-cpp (which costs ~0.5 s to import): `resolveEmbedder` must stay cheap, yet
 * the index fingerprint needs the dims before the first embedding.
 *
 * Reads key/value pairs in order and stops at `<arch>.embedding_length`, which writers
 * put before the large tokenizer arrays, so this usually reads a few kilobytes.
 */
export interface GgufHeaderInfo {
  architecture?: string;
  embeddingLength?: number;
  name?: string;
}

const CHUNK = 64 * 1024;
/** Scalar sizes by GGUF value type (strings and arrays are variable). */
const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
/** Sanity bounds: a corrupt header must fail fast, not allocate gigabytes or loop for ages. */
const MAX_STRING = 64 * 1024 * 1024;
const MAX_COUNT = 1e9;

class Reader {
  private buf = Buffer.alloc(0);
  private pos = 0;
  private filePos = 0;

  constructor(private readonly fd: number) {}

  private need(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const rest = this.buf.subarray(this.pos);
    const more = Buffer.alloc(Math.max(CHUNK, n));
    const got = readSync(this.fd, more, 0, more.length, this.filePos);
    this.filePos += got;
    this.buf = Buffer.concat([rest, more.subarray(0, got)]);
    this.pos = 0;
    if (this.buf.length < n) throw new Error("unexpected end of file in GGUF header");
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  u64(): number {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("GGUF length out of range");
    return Number(v);
  }

  str(): string {
    const len = this.u64();
    if (len > MAX_STRING) throw new Error(`GGUF string of ${len} bytes: corrupt header`);
    this.need(len);
    const s = this.buf.toString("utf8", this.pos, this.pos + len);
    this.pos += len;
    return s;
  }

  skip(n: number): void {
    while (n > 0) {
      const step = Math.min(n, CHUNK);
      this.need(step);
      this.pos += step;
      n -= step;
    }
  }

  scalar(type: number): number | bigint | boolean {
    const size = SCALAR_SIZE[type];
    if (size === undefined) throw new Error(`unknown GGUF value type ${type}`);
    this.need(size);
    const b = this.buf;
    const p = this.pos;
    this.pos += size;
    switch (type) {
      case 0:
        return b.readUInt8(p);
      case 1:
        return b.readInt8(p);
      case 2:
        return b.readUInt16LE(p);
      case 3:
        return b.readInt16LE(p);
      case 4:
        return b.readUInt32LE(p);
      case 5:
        return b.readInt32LE(p);
      case 6:
        return b.readFloatLE(p);
      case 7:
        return b.readUInt8(p) !== 0;
      case 10:
        return b.readBigUInt64LE(p);
      case 11:
        return b.readBigInt64LE(p);
      default:
        return b.readDoubleLE(p);
    }
  }

  skipValue(type: number): void {
    if (type === STRING) {
      const len = this.u64();
      if (len > MAX_STRING) throw new Error(`GGUF string of ${len} bytes: corrupt header`);
      this.skip(len);
    } else if (type === ARRAY) {
      const itemType = this.u32();
      const count = this.u64();
      if (count > MAX_COUNT) throw new Error(`GGUF array of ${count} items: corrupt header`);
      if (itemType === STRING || itemType === ARRAY) {
        for (let i = 0; i < count; i++) this.skipValue(itemType);
      } else {
        const size = SCALAR_SIZE[itemType];
        if (size === undefined) throw new Error(`unknown GGUF array type ${itemType}`);
        this.skip(size * count);
      }
    } else {
      this.scalar(type);
    }
  }
}

/** Throws when the file is not a readable GGUF (v2/v3) file. */
export function readGgufHeader(file: string): GgufHeaderInfo {
  const fd = openSync(file, "r");
  try {
    const r = new Reader(fd);
    const magic = r.u32();
    if (magic !== 0x46554747) throw new Error("not a GGUF file (bad magic)");
    const version = r.u32();
    if (version < 2 || version > 3) throw new Error(`unsupported GGUF version ${version}`);
    r.u64(); // tensor count
    const kvCount = r.u64();
    if (kvCount > 1e6) throw new Error(`${kvCount} metadata entries: corrupt header`);
    const info: GgufHeaderInfo = {};
    for (let i = 0; i < kvCount; i++) {
      const key = r.str();
      const type = r.u32();
      if (type === STRING && (key === "general.architecture" || key === "general.name")) {
        const value = r.str();
        if (key === "general.architecture") info.architecture = value;
        else info.name = value;
      } else if (info.architecture && key === `${info.architecture}.embedding_length` && type !== ARRAY) {
        info.embeddingLength = Number(r.scalar(type));
        return info;
      } else {
        r.skipValue(type);
      }
    }
    return info;
  } finally {
    closeSync(fd);
  }
}
