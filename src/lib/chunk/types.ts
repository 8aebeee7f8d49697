/** The vocabulary of the shared chunk upload (API.md §20.2, §21.2). */

/** One chunk: its SHA-1 and where its bytes are in the stream or file it was cut from. */
export interface Chunk {
  sha1: string;
  offset: number;
  size: number;
}

/** A chunk of a file on disk (offset counts from the start of that file). */
export interface FileChunk extends Chunk {
  path: string;
}
