import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeIndexes } from "../index/handles.js";
import { openWorkspace } from "../workspace/workspace.js";
import { isChatTurn, profileOf } from "./profile.js";
import { recall } from "./recall.js";

const CHAT = [
  "# 1:56 pm on 8 May, 2023",
  "- **Caroline** (1:56 pm): Hey Mel! Good to see you! How have you been?",
  "- **Melanie** (1:56 pm): Hey Caroline! Good to see you! I'm swamped with the kids & work.",
  "- **Caroline** (1:57 pm): I went to a LGBTQ support group yesterday and it was so powerful.",
];

// What membank's session ingestion writes (src/sessions/digest.ts).
const DIGEST = [
  "# Sessions of 2026-03-04",
  "## Session `a1b2` · agent `main` · 09:12:03–09:20:44",
  "Source: `agents/main/sessions/a1b2.jsonl`",
  "### 09:12:03 user · L3",
  "> can you move the standup to 9:30?",
  "### 09:12:09 assistant · L4",
  "> Done, moved it to 9:30 and told Priya.",
];

const PLAIN = [
  "# 2026-03-04",
  "Slow morning. **Important**: call the landlord about the boiler.",
  "- paid rent",
  "- **todo** renew passport",
  "## Retain",
  "- W @Priya: Moved the standup to 9:30.",
  "- O(c=0.7) @Priya: Prefers async updates.",
  "- B: Fixed the upload test.",
];

describe("recall profile", () => {
  it("knows chat turns and session digest turns, not bold words in notes", () => {
    expect(isChatTurn(CHAT[1]!)).toBe(true);
    expect(isChatTurn(DIGEST[3]!)).toBe(true);
    expect(isChatTurn("### Tuesday")).toBe(false);
    expect(profileOf(CHAT)).toBe("chat");
    expect(profileOf(DIGEST)).toBe("chat");
    expect(profileOf(PLAIN)).toBe("plain");
    expect(profileOf([])).toBe("plain");
  });

  let dir: string | undefined;
  afterEach(() => {
    closeIndexes();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function workspace(files: Record<string, string>) {
    dir = mkdtempSync(path.join(tmpdir(), "membank-profile-"));
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), text);
    }
    return openWorkspace(dir);
  }

  it("is detected from the logs, and config or the caller can set it", async () => {
    const chat = await workspace({ "memory/2023-05-08.md": `${CHAT.join("\n")}\n` });
    const asOf = new Date("2023-05-10T12:00:00Z");
    expect((await recall(chat, "support group", { asOf, explain: true })).explain!.profile).toBe("chat");
    expect((await recall(chat, "support group", { asOf, explain: true, profile: "plain" })).explain!.profile).toBe(
      "plain",
    );
    closeIndexes();
    rmSync(dir!, { recursive: true, force: true });
    const plain = await workspace({
      "memory/2026-03-04.md": `${PLAIN.join("\n")}\n`,
      "memory/2026-03-05.md": "# 2026-03-05\n\n- yesterday's standup move went fine\n",
    });
    const r = await recall(plain, "what happened with the standup on March 4", {
      asOf: new Date("2026-03-06T12:00:00Z"),
      explain: true,
    });
    expect(r.explain!.profile).toBe("plain");
    // Plain logs: March 4's events are March 4's log; the next day's note is outside the window.
    const [first] = r.results;
    expect(first!.source.startsWith("memory/2026-03-04.md")).toBe(true);
    writeFileSync(path.join(dir!, "membank.config.json"), JSON.stringify({ recall: { profile: "chat" } }));
    const configured = await openWorkspace(dir!);
    expect((await recall(configured, "standup", { explain: true })).explain!.profile).toBe("chat");
  });
});
