/** One embedding provider. Vectors are L2-normalised Float32Arrays of length `dims`. */
export interface Embedder {
  /** Provider id: "local" | "openai" | "gemini" | "use" | a test id. */
  readonly id: string;
  /** Model name (file name for local models). Part of the index fingerprint. */
  readonly model: string;
  readonly dims: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Release native resources (models, contexts). */
  close?(): Promise<void>;
}

/** What `auto` (or an explicit setting) resolved to, as reported by search results and `doctor`. */
export interface EmbedderChoice {
  /** null when no provider is available: BM25 only. */
  embedder: Embedder | null;
  /** The provider that answers, or "none". */
  provider: string;
  model?: string;
  /** Set when the preferred provider was not usable and another (or none) was taken, with why. */
  fallback?: string;
}
