/** The bundle spool now lives with the shared chunk upload; this name stays for existing imports. */
export { type Chunk, ChunkSpool } from "../chunk/spool.ts";
