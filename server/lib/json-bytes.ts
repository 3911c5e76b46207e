const measured = new WeakMap<object, number>();

/**
 * The size estimate of plain data (rows, pages, lists): the UTF-8 bytes of its JSON, Maps and
 * Sets counted by their entries. Measured once per object: kept values are never changed in
 * place (one that grows, like a SharedAnswer, reports its own size instead). (A memo of a pure
 * computation, not a cache of data: it cannot go stale, and goes with its object.)
 */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== "object") return Buffer.byteLength(String(value));
  let bytes = measured.get(value);
  if (bytes === undefined) {
    bytes = Buffer.byteLength(JSON.stringify(value, (_key, v: unknown) => (v instanceof Map || v instanceof Set ? [...v] : v)));
    measured.set(value, bytes);
  }
  return bytes;
}
