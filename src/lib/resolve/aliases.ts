const SEPARATORS = new Set(["-", "_", "."]);

function shortestUniquePrefix(name: string, others: readonly string[]): string {
  for (let len = 1; len <= name.length; len++) {
    const p = name.slice(0, len);
    // `web-` would read as `web--4Y` in an issue reference; extend past separators.
    if (SEPARATORS.has(p[p.length - 1] as string)) continue;
    if (!others.some((o) => o !== name && o.startsWith(p))) return p;
  }
  return name;
}

/** The slugs' common prefix, cut back to its last separator (`frontend-web`, `frontend-api` → `frontend-`). */
export function commonSlugPrefix(slugs: readonly string[]): string {
  if (slugs.length < 2) return "";
  let common = slugs[0] as string;
  for (const s of slugs) {
    let i = 0;
    while (i < common.length && i < s.length && common[i] === s[i]) i++;
    common = common.slice(0, i);
  }
  let cut = -1;
  for (let i = 0; i < common.length; i++) if (SEPARATORS.has(common[i] as string)) cut = i;
  const prefix = common.slice(0, cut + 1);
  return slugs.every((s) => s.length > prefix.length) ? prefix : "";
}

/**
 * Short, unique, lower-case aliases for several projects (same order as the input): the shortest
 * unique prefix of each slug after stripping the slugs' common prefix; a slug present in several
 * organizations gets the org's shortest unique prefix in front (`a-w`, `g-w`). Any remaining
 * clash falls back to `<org>-<slug>`, then to a numeric suffix.
 */
export function computeAliases(targets: readonly { org: string; project: string }[]): string[] {
  const slugs = targets.map((t) => t.project.toLowerCase());
  const orgs = targets.map((t) => t.org.toLowerCase());
  const orgsBySlug = new Map<string, Set<string>>();
  slugs.forEach((s, i) => {
    const set = orgsBySlug.get(s) ?? new Set<string>();
    set.add(orgs[i] as string);
    orgsBySlug.set(s, set);
  });
  const distinct = [...orgsBySlug.keys()].sort();
  const prefix = commonSlugPrefix(distinct);
  const stripped = new Map(distinct.map((s) => [s, s.slice(prefix.length)]));
  const strippedNames = [...stripped.values()];
  const slugAlias = new Map(
    distinct.map((s) => [s, shortestUniquePrefix(stripped.get(s) as string, strippedNames)]),
  );
  const aliases = targets.map((_, i) => {
    const slug = slugs[i] as string;
    const sharing = [...(orgsBySlug.get(slug) as Set<string>)];
    const base = slugAlias.get(slug) as string;
    if (sharing.length < 2) return base;
    return `${shortestUniquePrefix(orgs[i] as string, sharing)}-${base}`;
  });
  const count = (list: string[]) => {
    const m = new Map<string, number>();
    for (const a of list) m.set(a, (m.get(a) ?? 0) + 1);
    return m;
  };
  const counts = count(aliases);
  aliases.forEach((a, i) => {
    if ((counts.get(a) ?? 0) > 1) {
      const slug = slugs[i] as string;
      aliases[i] = (orgsBySlug.get(slug)?.size ?? 0) > 1 ? `${orgs[i]}-${slug}` : slug;
    }
  });
  const used = new Set<string>();
  return aliases.map((a) => {
    let out = a;
    for (let n = 2; used.has(out); n++) out = `${a}${n}`;
    used.add(out);
    return out;
  });
}

/** An alias of one project of a listing's target. */
export interface TargetAlias {
  alias: string;
  org: string;
  project: string;
}

const keyOf = (p: { org: string; project: string }) => `${p.org}/${p.project}`.toLowerCase();

/**
 * Extends a target's aliases with projects not seen before, never changing an alias already given
 * (an alias shown once keeps meaning its project across pages, sorts and runs). New aliases are
 * computed from the whole set of the target's known projects; one that is taken already grows
 * into a longer prefix of the slug, then the slug, then a numbered slug.
 */
export function extendAliases(
  existing: readonly TargetAlias[],
  projects: readonly { org: string; project: string }[],
): TargetAlias[] {
  const known = new Set(existing.map(keyOf));
  const missing: { org: string; project: string }[] = [];
  for (const p of projects) {
    const k = keyOf(p);
    if (!known.has(k)) {
      known.add(k);
      missing.push(p);
    }
  }
  if (missing.length === 0) return [...existing];
  const all = [...existing, ...missing];
  const computed = computeAliases(all);
  const used = new Set(existing.map((e) => e.alias.toLowerCase()));
  const out = [...existing];
  missing.forEach((p, i) => {
    const slug = p.project.toLowerCase();
    const candidates = [computed[existing.length + i] as string];
    for (let len = 1; len <= slug.length; len++) {
      if (!SEPARATORS.has(slug[len - 1] as string)) candidates.push(slug.slice(0, len));
    }
    candidates.push(`${p.org.toLowerCase()}-${slug}`);
    let alias = candidates.find((c) => !used.has(c));
    for (let n = 2; alias === undefined; n++) if (!used.has(`${slug}${n}`)) alias = `${slug}${n}`;
    used.add(alias);
    out.push({ alias, org: p.org, project: p.project });
  });
  return out;
}
