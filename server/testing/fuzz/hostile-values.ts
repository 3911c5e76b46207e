/**
 * The values a hostile client sends in place of a real one (ADR 0043): wrong types, huge and odd
 * strings, injection snippets, numbers that are not ids. Kept in one list so every route gets the
 * same vocabulary; the fuzz picks from it with a seeded generator.
 */

/** A small, fast, seedable generator (mulberry32): the same seed gives the same cases. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}
export type Random = ReturnType<typeof seededRandom>;

const HUNDRED_KB = "歌".repeat(34 * 1024);

/** Strings no field expects: control characters, scripts, RTL, injections, paths, huge. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202eevil\u202d",
  "مرحبا بالعالم",
  "🎧🔥💿👩‍👩‍👧‍👦🏳️‍🌈",
  "\ud800",
  "\uffff\ufffe",
  "\r\nSet-Cookie: x=1",
  "' or 1=1 --",
  "1; drop table users; --",
  "\\",
  "%",
  "_",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "../../../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "C:\\Windows\\win.ini",
  "javascript:alert(1)",
  "http://169.254.169.254/latest/meta-data/",
  "file:///etc/passwd",
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "x".repeat(5_000),
  HUNDRED_KB,
];

/** Numbers that are no row's id, no page, no count. */
export const HOSTILE_NUMBERS: readonly unknown[] = [
  0,
  -1,
  -2147483649,
  2147483648,
  9007199254740993,
  1e308,
  1.5,
  -0.5,
  "NaN",
  "Infinity",
  "-1",
  "1.5",
  "1e3",
  "0x10",
  " 1",
  "１",
  "99999999999999999999999",
];

/** Anything of the wrong type. */
export const WRONG_TYPES: readonly unknown[] = [null, true, false, [], [1, 2], {}, { $gt: "" }, JSON.parse('{"__proto__":{"admin":true}}'), [[[[[[[[[[]]]]]]]]]]];

export const ALL_HOSTILE: readonly unknown[] = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...WRONG_TYPES];

/** Path segments for ids and codes: traversal, encoded slashes, overlong, not numbers. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  "0",
  "-1",
  "1.5",
  "NaN",
  "Infinity",
  "1e9",
  "99999999999999999999",
  "2147483648",
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "%2F",
  "a%00b",
  "%00",
  "%E2%80%AE",
  "%F0%9F%8E%A7",
  "'%20or%201=1",
  "%3Cscript%3E",
  "9".repeat(400),
  "a".repeat(499),
  "x;y",
  "1,2",
  "%25",
];

/** Bodies that are not the JSON object a route expects, with the content type they are sent as. */
export const HOSTILE_BODIES: readonly { contentType: string | undefined; body: string | Buffer }[] = [
  { contentType: "application/json", body: "{" },
  { contentType: "application/json", body: '{"a":1,}' },
  { contentType: "application/json", body: "" },
  { contentType: "application/json", body: "null" },
  { contentType: "application/json", body: "[]" },
  { contentType: "application/json", body: '"text"' },
  { contentType: "application/json", body: "12" },
  { contentType: "application/json", body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { contentType: "application/json", body: "[".repeat(5_000) + "]".repeat(5_000) },
  { contentType: "application/json", body: Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d]) },
  { contentType: "application/json; charset=latin1", body: "{}" },
  { contentType: "text/plain", body: "hello" },
  { contentType: "application/x-www-form-urlencoded", body: "a=1&b=2" },
  { contentType: "application/xml", body: "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>" },
  { contentType: "multipart/form-data; boundary=zz", body: "--zz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../x.mp3\"\r\n\r\nabc\r\n--zz--\r\n" },
  { contentType: "multipart/form-data", body: "no boundary" },
  { contentType: "application/octet-stream", body: Buffer.from("\u0000\u0001binary") },
  { contentType: undefined, body: "{}" },
];
