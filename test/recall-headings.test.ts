// A line under a short heading ("## Garage", "# Parents' evening") answers a question that
// names the heading even when the line itself does not repeat it; the heading line alone
// answers nothing. A long heading (a chat session's title) hands nothing down.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let dir: string;
let ws: Workspace;
const asOf = new Date("2026-07-01T12:00:00Z");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-headings-"));
  await mkdir(path.join(dir, "memory"));
  const logs: Record<string, string> = {
    "2026-06-02.md":
      "## Garage\n\nGuy at Pellow's reckons the clutch is on its way out, £640 quoted, booked for the 19th.\n\n## Kids\n\nOlu has a cough, kept her home.\n",
    "2026-06-09.md": "# Parents' evening\n\nMrs Adeyemi: Tayo is ahead in maths, needs to read more at home.\n",
    "2026-06-12.md": "Dropped the car at the garage finally.\nTayo read two chapters tonight!\n",
    "2026-06-20.md":
      "## Session 4 (7:10 pm on 20 June, 2026): Olu and Tayo about the garage band\n\n- **Olu** (7:10 pm): we need a drummer\n",
  };
  for (const [name, text] of Object.entries(logs)) await writeFile(path.join(dir, "memory", name), text);
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

const top = async (q: string) => (await recall(ws, q, { asOf, k: 3 })).results.map((r) => r.source);

describe("heading context", () => {
  it("ranks the line under a matching heading above the heading itself", async () => {
    expect((await top("what did the garage tell me?"))[0]).toBe("memory/2026-06-02.md#L3-L3");
    expect((await top("what did they say at parents evening?"))[0]).toBe("memory/2026-06-09.md#L3-L3");
  });

  it("does not hand a long heading's words (a session's title) to the lines under it", async () => {
    expect((await top("anything about the garage band?"))[0]).toBe("memory/2026-06-20.md#L1-L1");
  });
});
