/**
 * The directive prologue of a script (`"use strict";`, `'use client'`), found past any leading
 * whitespace and comments (a licence banner): inject must keep those directives first, or a
 * rollup CJS build with a banner silently leaves strict mode.
 */

/** The directives found, and where the line of the last one ends when nothing but comments follows it. */
export interface Prologue {
  /** Each directive's literal as written (`"use strict"`). */
  directives: string[];
  /** Offset just past the line break ending the prologue's last line (or the text's length); undefined when code shares that line or there is no directive. */
  lineEnd?: number;
}

/** Characters that, after a line break, continue an expression (no semicolon is inserted before them). */
const CONTINUES = new Set([..."([.+-*/%,?:=<>&|^`"]);

/** Offset past whitespace and comments from `i`; -1 when a block comment never ends. */
function skipTrivia(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith("//", i)) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) return -1;
      i = close + 2;
    } else return i;
  }
}

/** Offset past the string literal starting at `i`, or -1 when it is not closed on its line. */
function stringEnd(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === quote) return j + 1;
    else if (c === "\n" || c === "\r") return -1;
  }
  return -1;
}

/** Offset past a directive's terminator (`;`, or a line break before a new statement), or -1 when the literal is part of an expression. */
function directiveEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (text[i] === ";") return i + 1;
  if (i >= text.length) return i;
  if (text[i] !== "\n" && text[i] !== "\r") return -1;
  const next = skipTrivia(text, i);
  if (next < 0 || next >= text.length) return at;
  return CONTINUES.has(text[next] as string) ? -1 : at;
}

/** Offset just past the end of the line at `i` when only whitespace and comments remain on it, else undefined. */
function restOfLineEnd(text: string, from: number): number | undefined {
  let i = from;
  for (;;) {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\r")) i++;
    if (i >= text.length) return text.length;
    if (text[i] === "\n") return i + 1;
    if (text.startsWith("//", i)) {
      const nl = text.indexOf("\n", i);
      return nl < 0 ? text.length : nl + 1;
    }
    if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0 || text.slice(i, close).includes("\n")) return undefined;
      i = close + 2;
      continue;
    }
    return undefined;
  }
}

/** The directive prologue at the start of `text` (after a `#!` line has been removed). */
export function directivePrologue(text: string): Prologue {
  const directives: string[] = [];
  let lastEnd = -1;
  let i = 0;
  for (;;) {
    const start = skipTrivia(text, i);
    if (start < 0 || (text[start] !== '"' && text[start] !== "'")) break;
    const literalEnd = stringEnd(text, start);
    if (literalEnd < 0) break;
    const end = directiveEnd(text, literalEnd);
    if (end < 0) break;
    directives.push(text.slice(start, literalEnd));
    lastEnd = end;
    i = end;
  }
  if (directives.length === 0) return { directives };
  return { directives, lineEnd: restOfLineEnd(text, lastEnd) };
}
