import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_SOCKET_PATH_BYTES, removeStaleSocket, socketInode, socketPath } from "./socket.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("socketPath", () => {
  it("is .memory/serve.sock when that fits a socket address", () => {
    expect(socketPath("/home/ana/clawd")).toBe("/home/ana/clawd/.memory/serve.sock");
  });

  it("falls back to a short name in the temp folder, one per workspace, for a deep workspace", () => {
    const deep = `/home/ana/${"Dropbox (Personal)/notes and things/".repeat(4)}clawd`;
    const a = socketPath(deep, "/tmp");
    expect(path.dirname(a)).toBe("/tmp");
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(socketPath(deep, "/tmp")).toBe(a);
    expect(socketPath(`${deep}-work`, "/tmp")).not.toBe(a);
    // Multi-byte names count in bytes, not characters.
    const diary = `/home/ana/${"日記".repeat(20)}`;
    expect(`${diary}/.memory/serve.sock`.length).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(path.dirname(socketPath(diary, "/tmp"))).toBe("/tmp");
  });
});

describe("removeStaleSocket", () => {
  it("removes the socket that was seen, never a newer one (another inode) or a plain file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "membank-sock-"));
    dirs.push(dir);
    const file = path.join(dir, "s.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(file, resolve));
    const seen = socketInode(file);
    expect(seen).toBeDefined();
    // What a client saw before a new server replaced the file: not this file any more.
    expect(removeStaleSocket(file, { dev: seen!.dev, ino: seen!.ino + 1 })).toBe(false);
    expect(existsSync(file)).toBe(true);
    expect(removeStaleSocket(file, seen!)).toBe(true);
    expect(existsSync(file)).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));

    writeFileSync(file, "not a socket\n");
    const st = statSync(file);
    expect(socketInode(file)).toBeUndefined();
    expect(removeStaleSocket(file, { dev: st.dev, ino: st.ino })).toBe(false);
    expect(existsSync(file)).toBe(true);
  });
});
