import { createHash } from "node:crypto";

/**
 * HMAC-SHA256 (RFC 2104 over FIPS 180-4) under one key, for many short messages: the key's two
 * padded blocks are compressed once (their "midstates"), and each message then costs two or
 * three compressions in this thread, with no object of Node's crypto binding per call. A new
 * visitor's cookie is signed on a kept page's answer (ADR 0053): through node:crypto, copying
 * two prepared Hash objects, that was ~3.5 µs of a ~30 µs answer, mostly the binding's calls
 * and the objects' finalization; this is ~1 µs. The output is the same bytes as
 * `createHmac("sha256", key).update(message).digest()` (hmac-sha256.test.ts checks every length
 * across the block boundaries against it). Not for secrets' comparison by itself: callers
 * compare with timingSafeEqual.
 */
export function hmacSha256(key: Buffer): (message: string) => Buffer {
  const block = Buffer.alloc(BLOCK_BYTES);
  (key.length > BLOCK_BYTES ? createHash("sha256").update(key).digest() : key).copy(block);
  const inner = midstate(block.map((b) => b ^ 0x36));
  const outer = midstate(block.map((b) => b ^ 0x5c));
  const state = new Int32Array(8);
  const words = new Int32Array(16);
  return (message) => {
    const bytes = asciiBytes(message) ?? Buffer.from(message, "utf8");
    state.set(inner);
    hashTail(state, words, bytes, BLOCK_BYTES);
    // The outer hash's message: the inner digest (32 bytes) after the opad block.
    words.set(state.subarray(0, 8));
    words.fill(0, 8);
    words[8] = 0x80000000 | 0;
    words[15] = (BLOCK_BYTES + 32) * 8;
    state.set(outer);
    compress(state, words);
    const digest = Buffer.allocUnsafe(32);
    for (let i = 0; i < 8; i++) digest.writeInt32BE(state[i]!, i * 4);
    return digest;
  };
}

const BLOCK_BYTES = 64;
/** Messages up to this many bytes go through a reused buffer (a visitor id is 22). */
const SCRATCH_BYTES = 256;
const scratch = Buffer.alloc(SCRATCH_BYTES);

/** The message's bytes when it is ASCII and short (no allocation), else null. */
function asciiBytes(message: string): Uint8Array | null {
  if (message.length > SCRATCH_BYTES) return null;
  for (let i = 0; i < message.length; i++) {
    const code = message.charCodeAt(i);
    if (code > 0x7f) return null;
    scratch[i] = code;
  }
  return scratch.subarray(0, message.length);
}

/**
 * Hashes `bytes` into `state` (already holding the midstate of `prefixBytes` hashed bytes):
 * every full block, then the last one with the padding and the total length in bits.
 */
function hashTail(state: Int32Array, words: Int32Array, bytes: Uint8Array, prefixBytes: number): void {
  let offset = 0;
  for (; offset + BLOCK_BYTES <= bytes.length; offset += BLOCK_BYTES) {
    readWords(words, bytes, offset, BLOCK_BYTES);
    compress(state, words);
  }
  const rest = bytes.length - offset;
  readWords(words, bytes, offset, rest);
  words[rest >> 2]! |= 0x80 << (24 - 8 * (rest & 3));
  if (rest >= 56) {
    compress(state, words);
    words.fill(0);
  }
  const bits = (prefixBytes + bytes.length) * 8;
  words[14] = Math.floor(bits / 0x100000000);
  words[15] = bits | 0;
  compress(state, words);
}

/** Up to 64 bytes from `offset` as big-endian words, the rest of the block zero. */
function readWords(words: Int32Array, bytes: Uint8Array, offset: number, count: number): void {
  words.fill(0);
  for (let i = 0; i < count; i++) words[i >> 2]! |= bytes[offset + i]! << (24 - 8 * (i & 3));
}

function midstate(block: Uint8Array): Int32Array {
  const state = Int32Array.from(INITIAL_STATE);
  const words = new Int32Array(16);
  readWords(words, block, 0, BLOCK_BYTES);
  compress(state, words);
  return state;
}

const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const ROUND_CONSTANTS = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const schedule = new Int32Array(64);

/** SHA-256's compression function (FIPS 180-4, 6.2.2): one 16-word block into the 8-word state. */
function compress(state: Int32Array, words: Int32Array): void {
  const w = schedule;
  w.set(words);
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}
