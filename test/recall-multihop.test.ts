// Multi-hop recall (issue 14 item 4): a question that names two things no single line
// says together is answered through a name on the line that connects them.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeIndexes } from "../src/index/handles.js";
import { bridgeNames } from "../src/recall/multihop.js";
import { recall } from "../src/recall/recall.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace.js";

let dir: string;
let ws: Workspace;
const asOf = new Date("2026-03-20T12:00:00Z");

// Plain daily logs, written the way people jot things down: the friend is named on one day,
// what she recommended on another, and other people recommend things all the time.
const LOGS: Record<string, string> = {
  "2026-03-02.md": `# Mon 2 March

- dropped Caroline at the support group in the library again. she introduced me to her friend Dana, who runs the sessions there
- groceries: oat milk, lentils, bin bags
- Caroline recommended the ramen place on Kirk St, must try
`,
  "2026-03-05.md": `## notes
standup moved to 9:30 (ugh)
Ben recommended a running app, Runna? meh
Caroline says the support group might move to wednesdays
`,
  "2026-03-09.md": `# 9/3

coffee with Dana after the session. she recommended "Becoming Nicole", said it changed how she talks to parents
car service booked for the 14th
`,
  "2026-03-10.md": `- the roof surveyor came round, Hamid Qureshi from Castle & Co. he'll come back with a ladder on Tuesday
`,
  "2026-03-17.md": `Hamid went up at last: two slipped slates and the flashing round the chimney is shot. Quote to follow
`,
  "2026-03-12.md": `- Caroline recommended we book the cabin early this year
- Marco's friend recommended a plumber, number is in my phone
- my friend Caroline is doing better, the group helps
`,
  "2026-03-16.md": `# Monday

Caroline and I went to the garden centre. she recommended the lavender for the balcony
Lunch with Priya. she recommended a dentist near work
`,
  "2026-03-18.md": `# 18 March
long day, train delayed twice

## Retain
- W @Jonas: His sister @Ilse works for the harbour authority in Rotterdam.
- B: Booked the ferry for Easter.
`,
  "2026-03-19.md": `- Jonas suggested we skip the museum and do the canal tour instead
- dinner at Jonas's, he suggested the Thai place for next time
`,
  "2026-03-20.md": `Jonas suggested I ring the landlord about the boiler. did it, no answer
`,
  "2026-03-21.md": `## Retain
- W @Ilse: Suggested taking the first ferry at dawn, cheaper and no queue.
- O(c=0.7) @Jonas: Prefers trains over flying.
`,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "membank-multihop-"));
  await mkdir(path.join(dir, "memory"));
  for (const [name, text] of Object.entries(LOGS)) await writeFile(path.join(dir, "memory", name), text);
  ws = await openWorkspace(dir);
});

afterAll(async () => {
  closeIndexes();
  await rm(dir, { recursive: true, force: true });
});

const sources = async (q: string, weights?: Record<string, number>) =>
  (await recall(ws, q, { asOf, k: 3, ...(weights ? { weights } : {}) })).results.map((r) => r.source);

const DANA_RECOMMENDS = /^memory\/2026-03-09\.md#L\d+-L\d+$/;

describe("multi-hop recall", () => {
  it("finds what the friend from the support group recommended through her name", async () => {
    const q = "What did Caroline's friend from the support group recommend?";
    // Without the second hop, the lines where Caroline or someone's friend recommends something win.
    expect(await sources(q, { multihop: 0 })).not.toContainEqual(expect.stringMatching(DANA_RECOMMENDS));
    const found = await sources(q);
    expect(found).toContainEqual(expect.stringMatching(DANA_RECOMMENDS));
    // The line that connects the two stays in the answer too.
    expect(found).toContainEqual(expect.stringMatching(/^memory\/2026-03-02\.md#L[1-3]-L[3-5]$/));
  });

  it("says which arm found it", async () => {
    const r = await recall(ws, "What did Caroline's friend from the support group recommend?", {
      asOf,
      k: 3,
      explain: true,
    });
    const hop = r.results.find((x) => DANA_RECOMMENDS.test(x.source));
    expect(hop?.arms?.map((a) => a.arm)).toContain("multihop");
  });

  it("bridges through an entity of a Retain fact", async () => {
    const q = "what did Jonas's sister suggest?";
    // Line 2 ("Suggested taking the first ferry"), not Jonas's opinion on line 3.
    const ILSE = /^memory\/2026-03-21\.md#L[12]-L[23]$/;
    expect(await sources(q, { multihop: 0 })).not.toContainEqual(expect.stringMatching(ILSE));
    expect(await sources(q)).toContainEqual(expect.stringMatching(ILSE));
  });

  it("a finding is the second hop's line in its own words: 'find' need not be on it", async () => {
    const q = "what did the roof surveyor find?";
    const FINDING = /^memory\/2026-03-17\.md#L1-L1$/;
    expect(await sources(q, { multihop: 0 })).not.toContainEqual(expect.stringMatching(FINDING));
    expect(await sources(q)).toContainEqual(expect.stringMatching(FINDING));
  });

  it("leaves a question one line answers alone", async () => {
    const q = "who recommended the lavender for the balcony?";
    expect(await sources(q)).toEqual(await sources(q, { multihop: 0 }));
  });
});

describe("bridgeNames", () => {
  it("takes names inside a sentence, not a sentence's first word, markup or the question's words", () => {
    const q = new Set(["caroline", "friend", "support", "group"]);
    expect(bridgeNames("Took Caroline to the group. She introduced me to her friend Dana.", q, [])).toEqual(["Dana"]);
    expect(bridgeNames("- **Melanie** (1:56 pm): Hey Mel! I'm off to see Dana's mum", q, [])).toEqual(["Mel", "Dana"]);
    // A Retain fact's subject is a name too (what the fact is about).
    expect(bridgeNames("- W @Noor: moved to Lisbon with @Ana-Sofia", q, ["Ana-Sofia"])).toEqual([
      "Ana-Sofia",
      "@Noor",
      "Lisbon",
    ]);
  });
});
