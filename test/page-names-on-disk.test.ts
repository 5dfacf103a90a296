/**
 * Bank page names as other systems leave them on disk, run through the real bin: a page synced
 * from an old Mac (HFS+ stores names decomposed, NFD: `Zoë.md` as e + U+0308). Before, the
 * nightly did not find it and wrote a second page that looks identical beside it.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "./cli-bin.js";
import { notesRepos } from "./support/notes-repo.js";

const repos = notesRepos("membank-page-names-");
const { git } = repos;

describe("an entity page whose file name is decomposed (NFD), as an old Mac's sync leaves it", () => {
  it("is found and written in place: no twin page, the person's own words on it kept", async () => {
    const dir = repos.notes({
      "memory/2026-06-01.md": "Dinner at Zoë's.\n\n## Retain\n- W @Zoë: keeps bees on the roof of her building\n",
    });
    const first = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(first.code, first.stderr).toBe(0);
    const entities = path.join(dir, "bank/entities");
    const nfc = "Zo\u00eb.md";
    const nfd = "Zoe\u0308.md";
    expect(readdirSync(entities)).toContain(nfc);
    // The page comes back from the Mac decomposed, with a line of the person's own below it.
    const text = `${readFileSync(path.join(entities, nfc), "utf8")}\nMet her through the allotment society.\n`;
    renameSync(path.join(entities, nfc), path.join(entities, nfd));
    writeFileSync(path.join(entities, nfd), text);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "synced from the old Mac");
    writeFileSync(
      path.join(dir, "memory/2026-06-08.md"),
      "## Retain\n- W @Zoë: sold her first jars of honey at the market\n",
    );

    const second = await runBin(["run", "nightly", "--workspace", dir], repos.env);
    expect(second.code, second.stderr).toBe(0);
    expect(readdirSync(entities).filter((n) => n.normalize("NFC") === nfc)).toEqual([nfd]);
    const page = readFileSync(path.join(entities, nfd), "utf8");
    expect(page).toContain("keeps bees on the roof");
    expect(page).toContain("sold her first jars of honey");
    expect(page).toContain("Met her through the allotment society.");
    expect(git(dir, "status", "--porcelain", "--", "bank")).toBe("");
  }, 60_000);
});
