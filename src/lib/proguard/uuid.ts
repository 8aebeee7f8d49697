/**
 * ProGuard mapping UUIDs (API.md §21.5): a version-5 UUID of the whole file's bytes under the
 * namespace uuid5(NAMESPACE_DNS, "guardsquare.com") — what rust-proguard, sentry-cli and the
 * Android Gradle plugin compute — hashed while the file streams. Also the cheap check that a file
 * is a mapping at all.
 */
import { ValidationError } from "../errors.ts";
import { readRegularHead } from "../fs/regular.ts";

/** RFC 4122 NAMESPACE_DNS. */
const NAMESPACE_DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

function bytesOf(uuid: string): Uint8Array {
  return Uint8Array.from(Buffer.from(uuid.replaceAll("-", ""), "hex"));
}

function uuidOf(digest: Uint8Array): string {
  const b = digest.slice(0, 16);
  b[6] = ((b[6] as number) & 0x0f) | 0x50;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = Buffer.from(b).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** uuid5(namespace, name) for a name held in memory. */
export function uuid5(namespace: string, name: Uint8Array): string {
  const h = new Bun.CryptoHasher("sha1");
  h.update(bytesOf(namespace));
  h.update(name);
  return uuidOf(new Uint8Array(h.digest()));
}

/** The ProGuard namespace: uuid5(NAMESPACE_DNS, "guardsquare.com"). */
export const PROGUARD_NAMESPACE = uuid5(NAMESPACE_DNS, new TextEncoder().encode("guardsquare.com"));

/** The UUID of a mapping file, streamed (memory: one read buffer). */
export async function proguardUuid(path: string): Promise<string> {
  const h = new Bun.CryptoHasher("sha1");
  h.update(bytesOf(PROGUARD_NAMESPACE));
  for await (const piece of Bun.file(path).stream()) h.update(piece);
  return uuidOf(new Uint8Array(h.digest()));
}

/**
 * Throws a ValidationError unless the file starts like a ProGuard/R8 mapping: `#` comments, then a
 * class line `original.Name -> obfuscated:`.
 */
export async function assertProguardMapping(path: string, shown: string): Promise<void> {
  // The head of a regular file: a FIFO or device named here is refused before any read.
  const read = readRegularHead(path, 64 * 1024);
  if (!read.ok) throw new ValidationError(`Cannot read ${shown}: ${read.note}.`, "path");
  const head = read.data.toString("utf8");
  const first = head.split("\n").find((l) => l.trim() !== "" && !l.startsWith("#"));
  if (first === undefined || !/^\S+ -> \S+:\s*$/.test(first))
    throw new ValidationError(
      `${shown} is not a ProGuard/R8 mapping file (expected lines like \`com.example.Main -> a:\`).`,
      "path",
    );
}
