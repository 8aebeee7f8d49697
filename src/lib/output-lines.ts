/**
 * JSON Lines on stdout (`log list --follow --json`): one compact document per line, written as
 * soon as it is known, so a consumer sees each record while the command keeps running.
 */
import type { TrackerContext } from "../context.ts";
import { jsonText } from "./output.ts";
import { selectFields, truncateJson } from "./shape.ts";

/**
 * Writes one value as one line of JSON. `--fields` and `--max-chars` shape each line as they
 * shape a whole document; `--jq` runs its program on each line (its output is written instead).
 */
export async function writeJsonLine(ctx: TrackerContext, value: unknown): Promise<void> {
  const o = ctx.output;
  let doc = value;
  if (o?.fields) doc = selectFields(doc, o.fields);
  if (o?.jq !== undefined) {
    const { runJq } = await import("./jq.ts");
    const out = await runJq(doc, o.jq, (t) => ctx.stderr.write(`${t}\n`));
    if (out !== "") ctx.stdout.write(`${out}\n`);
    return;
  }
  if (o?.maxChars) doc = truncateJson(doc, o.maxChars);
  ctx.stdout.write(`${jsonText(doc)}\n`);
}
