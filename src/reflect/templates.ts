import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { templateHelpLines } from "../markdown/page-content.js";
import { MembankError } from "../workspace/errors.js";
import { packageRoot } from "../workspace/init.js";
import type { Workspace } from "../workspace/workspace.js";

export type TemplateName = "entity" | "opinions" | "world" | "experience" | "observations" | "proposals";

/** The package's templates/ folder (under the one package-root finder, workspace/init.ts). */
export function packageTemplatesDir(): string | undefined {
  const root = packageRoot();
  const dir = root === undefined ? undefined : path.join(root, "templates");
  return dir !== undefined && existsSync(path.join(dir, "entity.md")) ? dir : undefined;
}

/**
 * A page template: the workspace's own `templates/<name>.md` (copied by `membank init`
 * and free to edit) wins over the package default. `{{name}}` is replaced by `vars.name`.
 */
export async function loadTemplate(
  ws: Workspace,
  name: TemplateName,
  cache: Map<string, string>,
  vars: { name?: string } = {},
): Promise<string> {
  let text = cache.get(name);
  if (text === undefined) {
    const own = path.join(ws.root, "templates", `${name}.md`);
    const pkg = packageTemplatesDir();
    const file = existsSync(own) ? own : pkg ? path.join(pkg, `${name}.md`) : undefined;
    if (!file || !existsSync(file)) {
      throw new MembankError(`Template ${name}.md not found (looked in ${own} and the package templates/)`, {
        code: "ENOTEMPLATE",
      });
    }
    text = await readFile(file, "utf8");
    cache.set(name, text);
  }
  return text.replaceAll("{{name}}", vars.name ?? "");
}

let helpLines: ReadonlySet<string> | undefined;

/**
 * Every line of the package templates' help text ("Your own notes go here. ...", the intro
 * of bank/opinions.md): membank's words on every bank page, which recall must never give as
 * an answer. Read once per process; empty when the package templates are not found.
 */
export function packageHelpLines(): ReadonlySet<string> {
  if (helpLines === undefined) {
    const dir = packageTemplatesDir();
    const lines = new Set<string>();
    if (dir !== undefined)
      for (const f of readdirSync(dir).sort())
        if (f.endsWith(".md")) for (const l of templateHelpLines(readFileSync(path.join(dir, f), "utf8"))) lines.add(l);
    helpLines = lines;
  }
  return helpLines;
}
