import { ValidationError } from "../errors.ts";

const SEMVER_RE = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Normalises a user-given version: trims, drops a leading `v`, and insists on semver (x.y.z[-pre]). */
export function parseVersion(raw: string): string {
  const text = raw.trim().replace(/^v/i, "");
  if (!SEMVER_RE.test(text)) {
    throw new ValidationError(`Version must look like 1.2.3 (optionally v1.2.3), got '${raw}'.`, "version");
  }
  return text;
}

/** True when `text` is a semver version without a leading `v`. */
export function isVersion(text: string): boolean {
  return SEMVER_RE.test(text);
}

function comparePre(a: string | undefined, b: string | undefined): number {
  // A release sorts after any of its prereleases.
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : undefined;
    const ny = /^\d+$/.test(y) ? Number(y) : undefined;
    if (nx !== undefined && ny !== undefined) {
      if (nx !== ny) return nx < ny ? -1 : 1;
    } else if (nx !== undefined) return -1;
    else if (ny !== undefined) return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Orders two semver versions: negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const ma = SEMVER_RE.exec(a);
  const mb = SEMVER_RE.exec(b);
  if (!ma || !mb) return a === b ? 0 : a < b ? -1 : 1;
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return comparePre(ma[4], mb[4]);
}
