/** Short project aliases for org-wide listings (`w` for web, `mo` for mobile-app …). */

/**
 * The shortest prefix of each slug that no other slug starts with (lower-case, never ending in a
 * separator, so `<alias>-<suffix>` stays unambiguous); the whole slug when none is unique.
 */
export function projectAliases(slugs: readonly string[]): Map<string, string> {
  const unique = [...new Set(slugs.map((s) => s.toLowerCase()))];
  const out = new Map<string, string>();
  for (const slug of unique) {
    let alias = slug;
    for (let k = 1; k < slug.length; k++) {
      const prefix = slug.slice(0, k);
      if (/[-_.]$/.test(prefix)) continue;
      if (!unique.some((other) => other !== slug && other.startsWith(prefix))) {
        alias = prefix;
        break;
      }
    }
    out.set(slug, alias);
  }
  return out;
}
