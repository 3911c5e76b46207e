/**
 * HTTP Range (RFC 9110 §14) for one representation of `size` bytes. We answer a single byte
 * range; a multi-range request is served whole (the RFC lets a server ignore Range), which is
 * what media elements never send anyway.
 */
export type RangeResult =
  | { kind: "none" }
  | { kind: "unsatisfiable" }
  | { kind: "range"; start: number; end: number };

const SPEC = /^(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: "none" };
  const eq = header.indexOf("=");
  // A unit we do not know is ignored, as the RFC requires.
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return { kind: "none" };
  const specs = header.slice(eq + 1).split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (specs.length === 0 || specs.length > 32) return { kind: "unsatisfiable" };
  const ranges: { start: number; end: number }[] = [];
  for (const spec of specs) {
    const m = SPEC.exec(spec);
    if (!m || (m[1] === "" && m[2] === "")) return { kind: "unsatisfiable" }; // malformed
    if (m[1] === "") {
      // Suffix range: the last N bytes.
      const n = Number(m[2]);
      if (n > 0 && size > 0) ranges.push({ start: Math.max(0, size - n), end: size - 1 });
      continue;
    }
    const start = Number(m[1]);
    const last = m[2] === "" ? size - 1 : Number(m[2]);
    if (last < start) return { kind: "unsatisfiable" }; // invalid byte-range-spec
    if (start < size) ranges.push({ start, end: Math.min(last, size - 1) });
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  if (specs.length > 1) return { kind: "none" };
  return { kind: "range", ...ranges[0] };
}

/** Strong comparison of an entity tag list (If-None-Match / If-Match) with ours. */
export function etagMatches(header: string, etag: string, weak: boolean): boolean {
  const strip = (t: string) => (weak ? t.replace(/^W\//, "") : t);
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || strip(tag) === strip(etag);
  });
}
