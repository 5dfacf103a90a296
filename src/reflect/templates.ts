import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MembankError } from "../workspace/errors.js";
import type { Workspace } from "../workspace/workspace.js";

export type TemplateName = "entity" | "opinions" | "world" | "experience" | "observations" | "proposals";

/** The package's templates/ folder, found from this module (src/ under vitest, dist/src/ when built). */
export function packageTemplatesDir(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, "templates");
    if (existsSync(path.join(candidate, "entity.md"))) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
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
