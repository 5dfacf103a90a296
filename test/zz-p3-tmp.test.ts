import { it } from "vitest";
import { nicknameTies } from "../src/reflect/nicknames.js";
import { scanLine } from "../src/reflect/prose.js";
it("x", () => {
  const l = "- Rebecca Shaw (Bex), best friend since Year 7. Her mum still calls her Rebecca.";
  console.log(JSON.stringify(nicknameTies(l)), JSON.stringify(scanLine(l, 1)));
});
