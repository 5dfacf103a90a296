import { writeFileSync } from "node:fs";
import { encodeGguf, type GgufTensor, type GgufValue, prng } from "./support/gguf-writer.js";

/**
 * A tiny, untrained Llama-architecture chat model (seeded random F32 weights, a
 * character-level SentencePiece vocabulary with byte fallback) as GGUF bytes. It says
 * nothing meaningful: it exists so the `local` LLM provider runs through the real
 * node-llama-cpp / llama.cpp path, where JSON-schema grammar constraints are what make
 * its output parse at all. Metadata keys and tensor names follow llama.cpp's llama loader.
 */

/** SentencePiece vocabulary: specials, 256 byte tokens, then printable ASCII as single characters. */
function vocab(): { tokens: string[]; scores: number[]; types: number[] } {
  // llama_token_type: 1 normal, 2 unknown, 3 control, 6 byte.
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  tokens.push("\u2581");
  types.push(1);
  for (let c = 33; c < 127; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  const scores = tokens.map((_, i) => -i);
  return { tokens, scores, types };
}

export function tinyLlamaGguf(seed = 11): Buffer {
  const dims = 64;
  const heads = 4;
  const layers = 1;
  const ffn = 128;
  const ctx = 4096;
  const rand = prng(seed);
  const random = (n: number, scale: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = (rand() * 2 - 1) * scale;
    return a;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);
  const { tokens, scores, types } = vocab();
  const w = 1 / Math.sqrt(dims);
  const tensors: GgufTensor[] = [
    { name: "token_embd.weight", shape: [dims, tokens.length], data: random(dims * tokens.length, 1) },
    { name: "output_norm.weight", shape: [dims], data: ones(dims) },
    { name: "output.weight", shape: [dims, tokens.length], data: random(dims * tokens.length, w) },
  ];
  for (let i = 0; i < layers; i++) {
    const blk = `blk.${i}`;
    tensors.push({ name: `${blk}.attn_norm.weight`, shape: [dims], data: ones(dims) });
    for (const part of ["attn_q", "attn_k", "attn_v", "attn_output"]) {
      tensors.push({ name: `${blk}.${part}.weight`, shape: [dims, dims], data: random(dims * dims, w) });
    }
    tensors.push({ name: `${blk}.ffn_norm.weight`, shape: [dims], data: ones(dims) });
    tensors.push({ name: `${blk}.ffn_gate.weight`, shape: [dims, ffn], data: random(dims * ffn, w) });
    tensors.push({ name: `${blk}.ffn_up.weight`, shape: [dims, ffn], data: random(dims * ffn, w) });
    tensors.push({ name: `${blk}.ffn_down.weight`, shape: [ffn, dims], data: random(ffn * dims, 1 / Math.sqrt(ffn)) });
  }
  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: "membank-tiny-llama-test" }],
    ["general.file_type", { type: "u32", value: 0 }],
    ["general.alignment", { type: "u32", value: 32 }],
    ["llama.context_length", { type: "u32", value: ctx }],
    ["llama.embedding_length", { type: "u32", value: dims }],
    ["llama.block_count", { type: "u32", value: layers }],
    ["llama.feed_forward_length", { type: "u32", value: ffn }],
    ["llama.attention.head_count", { type: "u32", value: heads }],
    ["llama.attention.head_count_kv", { type: "u32", value: heads }],
    ["llama.rope.dimension_count", { type: "u32", value: dims / heads }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.scores", { type: "f32[]", value: scores }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: types }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: 0 }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: 1 }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: 2 }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
  ];
  return encodeGguf(metadata, tensors);
}

export function writeTinyLlamaGguf(file: string, seed?: number): string {
  writeFileSync(file, tinyLlamaGguf(seed));
  return file;
}
