/**
 * A copy of `bytes` that owns exactly its memory, for bytes a cache keeps.
 *
 * Node's synchronous zlib calls return a slice of a 64 KB output chunk, so a kept 2 KB answer
 * held the whole 64 KB alive while the caches counted 2 KB: the soak found 3,700 such chunks
 * (232 MB) behind caches that reported a fraction of it (ADR 0037). `allocUnsafeSlow` gives
 * the copy its own backing store instead of a slice of the shared 8 KB pool.
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/**
 * `text` as UTF-8 bytes in memory of their own. `Buffer.from(text)` puts a short text in a
 * slice of Node's shared 64 KB pool (Buffer.poolSize on Node 24): kept, it pins the slab.
 */
export function ownText(text: string): Buffer {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  own.write(text);
  return own;
}
