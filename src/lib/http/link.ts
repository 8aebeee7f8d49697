/** One entry of a Link header. */
export interface LinkEntry {
  url: string;
  rel: string;
  results: boolean;
  cursor: string | undefined;
}

/** Parses Sentry's Link header (`<url>; rel="next"; results="true"; cursor="..."`, entries joined by commas). */
export function parseLinkHeader(header: string | null | undefined): LinkEntry[] {
  if (!header) return [];
  const out: LinkEntry[] = [];
  const re = /<([^>]*)>((?:\s*;\s*[a-zA-Z_]+\s*=\s*"[^"]*")*)/g;
  for (const m of header.matchAll(re)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[2] ?? "").matchAll(/([a-zA-Z_]+)\s*=\s*"([^"]*)"/g))
      attrs[a[1] as string] = a[2] as string;
    out.push({
      url: m[1] ?? "",
      rel: attrs.rel ?? "",
      results: attrs.results === "true",
      cursor: attrs.cursor,
    });
  }
  return out;
}

/** The cursor of the next page, present only when `rel="next"` says `results="true"`. */
export function nextCursorFromLink(header: string | null | undefined): string | undefined {
  const next = parseLinkHeader(header).find((e) => e.rel === "next");
  return next?.results && next.cursor ? next.cursor : undefined;
}
