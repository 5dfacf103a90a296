import { createConnection } from "node:net";
import { MembankError } from "../workspace/errors.js";
import { type Envelope, NOT_MINE, PROTOCOL_VERSION, type ServeAnswer, type ServeRequest } from "./protocol.js";
import { removeStaleSocket, socketInode, socketPath } from "./socket.js";

/** A live server accepts at once; a wedged or absent one must not delay the in-process answer. */
const CONNECT_TIMEOUT_MS = 250;

export interface AskOptions {
  /** The socket to try (default: the workspace's). */
  socket?: string;
  connectTimeoutMs?: number;
}

/** Why no answer came: nobody listens, a stale socket was removed, or the server could not answer this. */
export type Unanswered = { answered: false; reason: "none" | "stale" | "refused" | "mismatch" | "dropped" };

/** Send one request; the raw answer, or why there is none. */
export async function exchange(
  root: string,
  request: ServeRequest,
  opts: AskOptions = {},
): Promise<{ answered: true; answer: ServeAnswer } | Unanswered> {
  const file = opts.socket ?? socketPath(root);
  const seen = socketInode(file);
  if (!seen) return { answered: false, reason: "none" };
  const envelope: Envelope = { ...request, v: PROTOCOL_VERSION, root };
  return new Promise((resolve) => {
    let connected = false;
    let raw = "";
    let settled = false;
    const done = (result: { answered: true; answer: ServeAnswer } | Unanswered) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const socket = createConnection(file);
    const timer = setTimeout(() => {
      if (!connected) done({ answered: false, reason: "refused" });
    }, opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      connected = true;
      clearTimeout(timer);
      socket.write(`${JSON.stringify(envelope)}\n`);
    });
    socket.on("data", (chunk: string) => {
      raw += chunk;
      const nl = raw.indexOf("\n");
      if (nl < 0) return;
      try {
        done({ answered: true, answer: JSON.parse(raw.slice(0, nl)) as ServeAnswer });
      } catch {
        done({ answered: false, reason: "dropped" });
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A socket file nobody listens on: a server that died without cleaning up.
      if (!connected && error.code === "ECONNREFUSED") {
        removeStaleSocket(file, seen);
        done({ answered: false, reason: "stale" });
      } else done({ answered: false, reason: connected ? "dropped" : "refused" });
    });
    socket.on("close", () => done({ answered: false, reason: connected ? "dropped" : "refused" }));
  });
}

/**
 * Ask the warm server of the workspace at `root` (`membank serve`), if one answers: its result, or
 * undefined when there is no server (the caller then answers in-process, with the same
 * output). A server's refusal of the request itself (a bad path for `get`) is thrown as
 * the same MembankError the in-process call throws.
 */
export async function askServer<T>(root: string, request: ServeRequest, opts: AskOptions = {}): Promise<T | undefined> {
  const res = await exchange(root, request, opts);
  if (!res.answered) return undefined;
  if (res.answer.ok) return res.answer.value as T;
  const { message, exitCode, code } = res.answer.error;
  if (code === NOT_MINE) return undefined;
  throw new MembankError(message, { exitCode, code });
}
