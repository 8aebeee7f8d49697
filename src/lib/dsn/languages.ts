/** Source languages whose files are scanned for DSNs, with the comment markers that disqualify a line. */

/** One scanned language: file extensions and line-comment openers. */
export interface Language {
  name: string;
  extensions: readonly string[];
  /** A DSN whose line starts (after indentation) with one of these is commented out. */
  commentPrefixes: readonly string[];
}

const C_STYLE = ["//", "/*", "*"] as const;

/** Languages of the spec (JavaScript/TypeScript, Python, Go, Java, Ruby, PHP) plus JVM config files. */
export const LANGUAGES: readonly Language[] = [
  {
    name: "javascript",
    extensions: [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte", ".astro"],
    commentPrefixes: C_STYLE,
  },
  { name: "python", extensions: [".py"], commentPrefixes: ["#"] },
  { name: "go", extensions: [".go"], commentPrefixes: C_STYLE },
  { name: "java", extensions: [".java", ".kt", ".kts", ".groovy", ".scala"], commentPrefixes: C_STYLE },
  { name: "java-properties", extensions: [".properties"], commentPrefixes: ["#", "!"] },
  { name: "ruby", extensions: [".rb", ".rake"], commentPrefixes: ["#"] },
  { name: "php", extensions: [".php"], commentPrefixes: [...C_STYLE, "#"] },
];

const BY_EXT = new Map<string, Language>();
for (const l of LANGUAGES) for (const e of l.extensions) BY_EXT.set(e, l);

/** The language of a file name, or undefined when it is not scanned (minified bundles are skipped). */
export function languageOf(fileName: string): Language | undefined {
  const dot = fileName.lastIndexOf(".");
  if (dot <= 0) return undefined;
  if (/\.min\.[cm]?js$/.test(fileName) || fileName.endsWith(".d.ts")) return undefined;
  return BY_EXT.get(fileName.slice(dot).toLowerCase());
}

/** True when the DSN at `index` of `text` sits on a line that is a comment in this language. */
export function isInComment(text: string, index: number, lang: Language): boolean {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const before = text.slice(lineStart, index).trimStart();
  return lang.commentPrefixes.some((p) => before.startsWith(p));
}
