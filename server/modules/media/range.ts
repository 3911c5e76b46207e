/**
 * HTTP Range (RFC 9110 §14) for one representation of `size` bytes. The satisfiable parts of
 * the request are served (§14.1.2): one part, or parts that overlap or touch (coalesced into
 * one), as a 206; several disjoint parts get the whole file (the RFC lets a server ignore
 * Range), which media elements never ask for anyway. Only when no part is satisfiable, or the
 * header is malformed, is the answer 416.
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
    // An invalid byte-range-spec (last before first); an open end is never invalid.
    if (m[2] !== "" && Number(m[2]) < start) return { kind: "unsatisfiable" };
    // Past the end: unsatisfiable alone, but the other parts may still be served.
    if (start < size) ranges.push({ start, end: m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1) });
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  const parts = coalesce(ranges);
  return parts.length === 1 ? { kind: "range", ...parts[0] } : { kind: "none" };
}

/** Ranges that overlap or touch, as one. */
function coalesce(ranges: { start: number; end: number }[]) {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out = [{ ...sorted[0] }];
  for (const r of sorted.slice(1)) {
    const last = out[out.length - 1];
    if (r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** Strong comparison of an entity tag list (If-None-Match / If-Match) with ours. */
export function etagMatches(header: string, etag: string, weak: boolean): boolean {
  const strip = (t: string) => (weak ? t.replace(/^W\//, "") : t);
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || strip(tag) === strip(etag);
  });
}
