import type { TrackerContext } from "../context.ts";
import { renderMarkdown, type ViewTable } from "./format/markdown.ts";
import { toJsonText } from "./json-deep.ts";
import { type ListMeta, listMeta, resumeTrimmed } from "./list-page.ts";
import { selectFields, truncateJson } from "./shape.ts";
import { paint } from "./style.ts";
import { attachedMarkdown } from "./view/attach.ts";

/**
 * Writes one JSON document and a newline to stdout: the only shape --json ever prints. Indented
 * for a person on a terminal, compact when piped (scripts and agents parse it; 1,000 issues
 * serialise about twice as fast and a third smaller). `--fields`, `--max-chars` and `--format md`
 * (ctx.output) shape every command's document here, so each command gets them for free.
 */
export function writeJson(ctx: TrackerContext, value: unknown, opts: { depth?: number } = {}): void {
  const o = ctx.output;
  const meta = listMeta(value);
  let doc = value;
  if (o?.fields) doc = selectFields(doc, o.fields);
  if (o?.jq !== undefined) {
    const program = o.jq;
    // Asynchronous: main waits for it before the run ends (ctx.inFlight "output").
    const done = import("./jq.ts").then(async ({ runJq, JqRuntimeError }) => {
      try {
        const out = await runJq(doc, program, (t) => ctx.stderr.write(`${t}\n`));
        if (out !== "") ctx.stdout.write(`${out}\n`);
      } catch (err) {
        // As jq does: what the program printed before it failed is output, then the error.
        if (err instanceof JqRuntimeError && err.output !== "") ctx.stdout.write(`${err.output}\n`);
        throw err;
      }
    });
    ctx.inFlight.set("output", done);
    return;
  }
  if (o?.format === "md") {
    const resume = meta?.resumeAt ? (kept: number) => resumeCursor(meta, kept) : undefined;
    // The view's table or sections; with --fields, a listing's table is the chosen fields.
    const view = o.fields ? meta && fieldsTable(doc, o.fields) : (meta?.table?.() ?? attachedMarkdown(value));
    ctx.stdout.write(`${renderMarkdown(doc, o.maxChars, resume, view)}\n`);
    return;
  }
  if (o?.maxChars) doc = meta ? fitListing(doc, o.maxChars, meta) : truncateJson(doc, o.maxChars);
  ctx.stdout.write(`${jsonText(doc, ctx.isStdoutTTY, opts.depth)}\n`);
}

/** A listing's rows as a table of the `--fields` paths, in the order they were given. */
function fieldsTable(doc: unknown, paths: readonly string[][]): ViewTable | undefined {
  const data = Array.isArray(doc) ? doc : (doc as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const value = (item: unknown, path: readonly string[]) => {
    let v = item;
    for (const k of path)
      v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
    return v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v);
  };
  return {
    headers: paths.map((p) => p.join(".")),
    rows: data.map((item) => paths.map((p) => value(item, p))),
  };
}

/** The cursor after the first `kept` rows of a listing shown in part, saved for `-c last`. */
function resumeCursor(meta: ListMeta, kept: number): string | undefined {
  const cursor = meta.resumeAt?.(kept);
  if (kept < meta.rows && cursor !== undefined) meta.save?.(cursor);
  return cursor;
}

/**
 * A listing trimmed to `maxChars` whose `nextCursor` continues right after the last row shown (a
 * longer cursor than the page's costs a few characters: the bound is tightened by that and the
 * trim redone, at most three times).
 */
function fitListing(doc: unknown, maxChars: number, meta: ListMeta): unknown {
  let budget = maxChars;
  let out: unknown = doc;
  for (let round = 0; round < 3 && budget > 0; round++) {
    out = truncateJson(doc, budget);
    if (typeof out !== "object" || out === null || Array.isArray(out)) return out;
    const data = (out as Record<string, unknown>).data;
    const kept = Array.isArray(data) ? data.length : meta.rows;
    if (kept >= meta.rows) return out;
    out = resumeTrimmed(out as Record<string, unknown>, kept, meta);
    const over = jsonText(out).length - maxChars;
    if (over <= 0) {
      resumeCursor(meta, kept);
      return out;
    }
    budget -= over;
  }
  return out;
}

/**
 * JSON text with DEL, C1 controls and line separators escaped too (JSON.stringify leaves them
 * raw): the same value, and nothing in it that a terminal would act on or the sanitiser change.
 */
export function jsonText(value: unknown, indent = false, depth = 0): string {
  const text = toJsonText(value, indent ? 2 : 0, depth);
  return text.replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Writes human-readable result lines to stdout. */
export function writeLines(ctx: TrackerContext, lines: string | readonly string[]): void {
  const text = typeof lines === "string" ? lines : lines.join("\n");
  if (text.length === 0) return;
  ctx.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/**
 * A list's rows under its title, or the lines of a view (no title). On a terminal the title heads the table on stdout after a
 * blank line, and output taller than the terminal goes through the pager (lib/pager.ts, loaded
 * only then). Piped, the rows alone are the output and the title is framing like the tips.
 */
export async function writeList(ctx: TrackerContext, rows: readonly string[], title?: string): Promise<void> {
  if (!ctx.isStdoutTTY) {
    if (title !== undefined) writeListTip(ctx, title);
    writeLines(ctx, rows);
    return;
  }
  const lines = title === undefined ? rows : [title, "", ...rows];
  if (lines.length >= ctx.terminalHeight - 1) {
    const { page } = await import("./pager.ts");
    if (await page(ctx, `${lines.join("\n")}\n`)) return;
  }
  writeLines(ctx, lines);
}

/**
 * A list's tip or footer: on stderr, and when stdout is piped only if stderr is a terminal (a
 * person watching the pipe), never into a script's captured stderr.
 */
export function writeListTip(ctx: TrackerContext, text: string): void {
  if (ctx.isStdoutTTY || ctx.isStderrTTY) writeTip(ctx, text);
}

/**
 * The answer to `-c last` after a listing's last page: an empty page (`{"data": [], "hasMore":
 * false}`), or the note on stderr; exit 0 either way.
 */
export function writePastEnd(ctx: TrackerContext, json: boolean, what: string): void {
  if (json) writeJson(ctx, { data: [], hasMore: false });
  else writeTip(ctx, `No more ${what}: the previous page was the last. Run without -c last to start again.`);
}

/** Writes a hint for humans to stderr (never stdout, never with --json). */
export function writeTip(ctx: TrackerContext, text: string): void {
  ctx.stderr.write(`${ctx.color ? paint(text, "2", "22") : text}\n`);
}

/**
 * Writes a line holding a secret the user asked for (`auth token`) on stdout. The run's sinks mask
 * every registered secret wherever it appears whole; this is the one deliberate exception, so the
 * line goes out in two writes neither of which holds the whole secret (it stays masked everywhere
 * else, logs included).
 */
export function writeSecretLine(ctx: TrackerContext, line: string, secret: string): void {
  const at = line.indexOf(secret);
  const cut = at < 0 ? line.length : at + Math.min(4, Math.floor(secret.length / 2));
  ctx.stdout.write(line.slice(0, cut));
  ctx.stdout.write(`${line.slice(cut)}\n`);
}
