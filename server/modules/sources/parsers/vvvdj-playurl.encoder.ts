/** Tests only: writes 清风DJ play-page fixtures (the site encodes; we only ever decode). */

/**
 * The inverse of the site's obfuscation, to write fixtures: for each character pick a key index
 * whose key character has the parity that makes (code(p) + code(key)) / 2 a whole character,
 * avoiding quotes and backslashes (the result sits in a JS string). Seeded: fixtures are stable.
 */
export function encodePlayUrl(plain: string, key: string, mode: "e0" | "e1", seed = 7): string {
  let state = seed;
  const next = () => (state = (state * 48271) % 2147483647);
  let out = mode;
  for (const p of plain) {
    const code = p.charCodeAt(0);
    const candidates: number[] = [];
    for (let k = 1; k <= key.length && k <= 299; k++) {
      const keyCode = key.charCodeAt(mode === "e0" ? k - 1 : key.length - k);
      const sum = code + keyCode;
      const hidden = String.fromCharCode(sum / 2);
      if (sum % 2 === 0 && !`'"\\`.includes(hidden)) candidates.push(k);
    }
    if (candidates.length === 0) throw new Error(`key cannot hide ${p}`);
    const k = candidates[next() % candidates.length];
    const keyCode = key.charCodeAt(mode === "e0" ? k - 1 : key.length - k);
    out += String.fromCharCode((code + keyCode) / 2) + String(100 + 3 * k);
  }
  return out;
}
