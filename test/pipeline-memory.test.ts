import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { releaseGarbage } from "../src/pipeline/memory.js";

describe("the full collection between steps", () => {
  it("leaves V8's flags as they were (the CLI's code cache is only valid under the flags it was made with)", () => {
    // dist/membank.cjs writes its code cache at the end of a run; V8 rejects a cache made
    // under other flags, so with --expose-gc left on every next start compiled the bundle anew.
    expect(releaseGarbage(0)).toBe(true);
    // A context made now shows `gc` only while the flag is on.
    expect(vm.runInNewContext("typeof gc")).toBe("undefined");
    // And the collector keeps working.
    expect(releaseGarbage(0)).toBe(true);
  });
});
