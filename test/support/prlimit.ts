import { execFileSync } from "node:child_process";

/** Is util-linux's prlimit here? (Tests of a full disk set a file-size limit with it.) */
export function hasPrlimit(): boolean {
  try {
    execFileSync("prlimit", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
