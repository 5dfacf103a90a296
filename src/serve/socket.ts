import { createHash } from "node:crypto";
import { lstatSync, realpathSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stateDirOf } from "../workspace/locate.js";

/**
 * A Unix socket path must fit `sun_path`: 108 bytes on Linux, 104 on macOS, both with the
 * terminating NUL. 103 bytes fits both.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/** The socket's name inside `.memory/`. */
export const SOCKET_NAME = "serve.sock";

/**
 * Where the warm server of a workspace listens: `.memory/serve.sock`, or, when that path is
 * too long for a socket, a short name under the temp folder keyed by a hash of the
 * workspace's real path (so the server and every client compute the same one).
 */
export function socketPath(root: string, tmp = tmpdir()): string {
  const inState = path.join(stateDirOf(root), SOCKET_NAME);
  if (Buffer.byteLength(inState) <= MAX_SOCKET_PATH_BYTES) return inState;
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A vanished root: the hash of the path as given still names one socket.
  }
  const key = createHash("sha256").update(real).digest("hex").slice(0, 16);
  return path.join(tmp, `membank-${key}.sock`);
}

/** The identity of a socket file (undefined when there is none, or it is not a socket). */
export function socketInode(file: string): { dev: number; ino: number } | undefined {
  try {
    const st = lstatSync(file);
    return st.isSocket() ? { dev: st.dev, ino: st.ino } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remove a socket file left by a dead server, only if it is still the very file that
 * refused the connection: a server that started since binds a new file (a new inode),
 * which is left alone. Never removes anything that is not a socket.
 */
export function removeStaleSocket(file: string, seen: { dev: number; ino: number }): boolean {
  const now = socketInode(file);
  if (!now || now.dev !== seen.dev || now.ino !== seen.ino) return false;
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}
