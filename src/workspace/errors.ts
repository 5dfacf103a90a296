/**
 * An error a user can act on: the message names the file (and line) or the missing
 * thing. The CLI prints `message` without a stack and exits with `exitCode`.
 */
export class MembankError extends Error {
  readonly exitCode: number;
  readonly code: string;

  constructor(message: string, options: { code?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MembankError";
    this.code = options.code ?? "EMEMBANK";
    this.exitCode = options.exitCode ?? 1;
  }
}
