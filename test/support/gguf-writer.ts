/**
 * A tiny GGUF v3 writer, used to generate a real (if untrained) BERT embedding model
 * for the tests, so the `local` provider runs through the real node-llama-cpp /
 * llama.cpp path without downloading anything.
 *
 * The metadata keys and tensor names follow llama.cpp's BERT loader
 * (src/models/bert.cpp, src/llama-model.cpp load_hparams, src/llama-vocab.cpp for the
 * "bert" = WordPiece tokenizer). llama.cpp checks value types strictly, so every key
 * is written with the exact GGUF type the loader asks for.
 */
import { writeFileSync } from "node:fs";

/** GGUF metadata value types (gguf.h). */
const GGUF_TYPE = {
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
} as const;

/** ggml tensor type F32. */
const GGML_TYPE_F32 = 0;
const ALIGNMENT = 32;

export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: string[] }
  | { type: "i32[]"; value: number[] }
  | { type: "f32[]"; value: number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: ne[0] is the innermost (contiguous) dimension. */
  shape: number[];
  data: Float32Array;
}

/** Growable little-endian byte buffer. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  get length(): number {
    return this.len;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
  }

  i32(v: number): void {
    this.ensure(4);
    this.buf.writeInt32LE(v | 0, this.len);
    this.len += 4;
  }

  u64(v: number): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.len);
    this.len += 8;
  }

  f32(v: number): void {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.len);
    this.len += 4;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf.writeUInt8(v, this.len);
    this.len += 1;
  }

  str(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.bytes(bytes);
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  padTo(alignment: number): void {
    while (this.len % alignment !== 0) this.u8(0);
  }

  result(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

function writeValue(w: ByteWriter, v: GgufValue): void {
  switch (v.type) {
    case "u32":
      w.u32(GGUF_TYPE.UINT32);
      w.u32(v.value);
      return;
    case "i32":
      w.u32(GGUF_TYPE.INT32);
      w.i32(v.value);
      return;
    case "f32":
      w.u32(GGUF_TYPE.FLOAT32);
      w.f32(v.value);
      return;
    case "bool":
      w.u32(GGUF_TYPE.BOOL);
      w.u8(v.value ? 1 : 0);
      return;
    case "string":
      w.u32(GGUF_TYPE.STRING);
      w.str(v.value);
      return;
    case "string[]":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.STRING);
      w.u64(v.value.length);
      for (const s of v.value) w.str(s);
      return;
    case "i32[]":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.INT32);
      w.u64(v.value.length);
      for (const n of v.value) w.i32(n);
      return;
    case "f32[]":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.FLOAT32);
      w.u64(v.value.length);
      for (const n of v.value) w.f32(n);
      return;
  }
}

/** Serialise a GGUF v3 file: header, metadata, tensor infos, aligned F32 tensor data. */
export function encodeGguf(metadata: Array<[string, GgufValue]>, tensors: GgufTensor[]): Buffer {
  const w = new ByteWriter();
  w.bytes(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.str(key);
    writeValue(w, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`tensor ${t.name}: shape ${t.shape} != ${t.data.length} values`);
    w.str(t.name);
    w.u32(t.shape.length);
    for (const d of t.shape) w.u64(d);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  w.padTo(ALIGNMENT);
  for (const t of tensors) {
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.padTo(ALIGNMENT);
  }
  return w.result();
}

/** mulberry32: small, seeded, deterministic PRNG so the generated model is the same bytes every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TinyBertOptions {
  /** Embedding width (the output dims). Must be divisible by heads. */
  dims?: number;
  heads?: number;
  layers?: number;
  ffn?: number;
  contextLength?: number;
  seed?: number;
  /** Extra whole words for the vocabulary (besides the built-in ones and single letters). */
  words?: string[];
}

/** Phantom-space marker llama.cpp's WordPiece tokenizer puts before a word's first piece. */
const WORD_START = "\u2581";

const BUILTIN_WORDS = [
  "the",
  "a",
  "we",
  "to",
  "of",
  "and",
  "is",
  "which",
  "database",
  "do",
  "use",
  "moved",
  "ledger",
  "postgres",
  "dog",
  "needs",
  "walk",
  "memory",
  "search",
  "hello",
  "world",
];

/** Token list in llama.cpp's converted WordPiece form: specials, "▁word", and continuation pieces. */
function buildVocab(extra: string[]): { tokens: string[]; types: number[] } {
  // Token types (llama_token_type): 1 normal, 3 control.
  const specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
  const tokens: string[] = [...specials];
  const types: number[] = specials.map(() => 3);
  const seen = new Set(tokens);
  const add = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    tokens.push(t);
    types.push(1);
  };
  for (const word of [...BUILTIN_WORDS, ...extra]) add(WORD_START + word.toLowerCase());
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789".split("");
  for (const c of chars) add(WORD_START + c); // a word may start with any letter
  for (const c of chars) add(c); // ...and continue with any letter (WordPiece "##c", stored without "##")
  for (const p of ".,;:!?'\"()-_/@#=") add(WORD_START + p);
  return { tokens, types };
}

/** Special token ids in the vocabulary built above. */
export const TINY_BERT_SPECIALS = { pad: 0, unk: 1, cls: 2, sep: 3, mask: 4 } as const;

/**
 * Build a tiny BERT embedding model (mean pooling, F32, seeded random weights) as GGUF bytes.
 * Untrained, so its vectors carry no meaning, but they are deterministic and differ per text.
 */
export function tinyBertGguf(options: TinyBertOptions = {}): Buffer {
  const dims = options.dims ?? 32;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 2;
  const ffn = options.ffn ?? dims * 2;
  const ctx = options.contextLength ?? 128;
  if (dims % heads !== 0) throw new Error("dims must be divisible by heads");
  const rand = prng(options.seed ?? 42);
  const { tokens, types } = buildVocab(options.words ?? []);

  const random = (n: number, scale: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = (rand() * 2 - 1) * scale;
    return a;
  };
  const filled = (n: number, v: number) => new Float32Array(n).fill(v);
  const weightScale = 1 / Math.sqrt(dims);

  const tensors: GgufTensor[] = [
    { name: "token_embd.weight", shape: [dims, tokens.length], data: random(dims * tokens.length, 1) },
    { name: "token_types.weight", shape: [dims, 2], data: random(dims * 2, 0.1) },
    { name: "position_embd.weight", shape: [dims, ctx], data: random(dims * ctx, 0.1) },
    { name: "token_embd_norm.weight", shape: [dims], data: filled(dims, 1) },
    { name: "token_embd_norm.bias", shape: [dims], data: filled(dims, 0) },
  ];
  for (let i = 0; i < layers; i++) {
    const blk = `blk.${i}`;
    for (const part of ["attn_q", "attn_k", "attn_v", "attn_output"]) {
      tensors.push({ name: `${blk}.${part}.weight`, shape: [dims, dims], data: random(dims * dims, weightScale) });
      tensors.push({ name: `${blk}.${part}.bias`, shape: [dims], data: random(dims, 0.02) });
    }
    tensors.push({ name: `${blk}.attn_output_norm.weight`, shape: [dims], data: filled(dims, 1) });
    tensors.push({ name: `${blk}.attn_output_norm.bias`, shape: [dims], data: filled(dims, 0) });
    tensors.push({ name: `${blk}.ffn_up.weight`, shape: [dims, ffn], data: random(dims * ffn, weightScale) });
    tensors.push({ name: `${blk}.ffn_up.bias`, shape: [ffn], data: random(ffn, 0.02) });
    tensors.push({ name: `${blk}.ffn_down.weight`, shape: [ffn, dims], data: random(ffn * dims, 1 / Math.sqrt(ffn)) });
    tensors.push({ name: `${blk}.ffn_down.bias`, shape: [dims], data: random(dims, 0.02) });
    tensors.push({ name: `${blk}.layer_output_norm.weight`, shape: [dims], data: filled(dims, 1) });
    tensors.push({ name: `${blk}.layer_output_norm.bias`, shape: [dims], data: filled(dims, 0) });
  }

  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: "bert" }],
    ["general.name", { type: "string", value: "membank-tiny-bert-test" }],
    ["general.file_type", { type: "u32", value: 0 }], // all F32
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["bert.context_length", { type: "u32", value: ctx }],
    ["bert.embedding_length", { type: "u32", value: dims }],
    ["bert.feed_forward_length", { type: "u32", value: ffn }],
    ["bert.block_count", { type: "u32", value: layers }],
    ["bert.attention.head_count", { type: "u32", value: heads }],
    ["bert.attention.layer_norm_epsilon", { type: "f32", value: 1e-12 }],
    ["bert.attention.causal", { type: "bool", value: false }],
    ["bert.pooling_type", { type: "u32", value: 1 }], // LLAMA_POOLING_TYPE_MEAN
    ["tokenizer.ggml.model", { type: "string", value: "bert" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: types }],
    ["tokenizer.ggml.token_type_count", { type: "u32", value: 2 }],
    ["tokenizer.ggml.normalizer.lowercase", { type: "bool", value: true }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: TINY_BERT_SPECIALS.cls }],
    ["tokenizer.ggml.cls_token_id", { type: "u32", value: TINY_BERT_SPECIALS.cls }],
    ["tokenizer.ggml.seperator_token_id", { type: "u32", value: TINY_BERT_SPECIALS.sep }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: TINY_BERT_SPECIALS.unk }],
    ["tokenizer.ggml.padding_token_id", { type: "u32", value: TINY_BERT_SPECIALS.pad }],
    ["tokenizer.ggml.mask_token_id", { type: "u32", value: TINY_BERT_SPECIALS.mask }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
  ];
  return encodeGguf(metadata, tensors);
}

/** Write the tiny BERT model to `file` and return its path. */
export function writeTinyBertGguf(file: string, options: TinyBertOptions = {}): string {
  writeFileSync(file, tinyBertGguf(options));
  return file;
}
