/**
 * A tiny deterministic synthesiser for the demo loops (build time only; the site never runs it).
 * Every voice is written into a circular stereo buffer, so a note that rings past the end of
 * the loop wraps to its start: the rendered loop is exactly periodic and repeats seamlessly.
 */
export const SAMPLE_RATE = 44_100;

export class LoopBuffer {
  readonly left: Float32Array;
  readonly right: Float32Array;
  constructor(readonly length: number) {
    this.left = new Float32Array(length);
    this.right = new Float32Array(length);
  }
  /** Adds a mono voice at `start` (samples), panned -1..1, wrapping around the loop end. */
  add(start: number, voice: Float32Array, gain: number, pan = 0): void {
    const gl = gain * Math.cos(((pan + 1) * Math.PI) / 4);
    const gr = gain * Math.sin(((pan + 1) * Math.PI) / 4);
    for (let i = 0; i < voice.length; i++) {
      const j = (start + i) % this.length;
      this.left[j] += voice[i] * gl;
      this.right[j] += voice[i] * gr;
    }
  }
  /** Mixes another bus in, multiplied sample-by-sample by `env` (sidechain pumping). */
  mix(other: LoopBuffer, gain: number, env?: (i: number) => number): void {
    for (let i = 0; i < this.length; i++) {
      const g = gain * (env ? env(i) : 1);
      this.left[i] += other.left[i] * g;
      this.right[i] += other.right[i] * g;
    }
  }
  /** Ping-pong feedback delay, run twice round the loop so its tail is periodic too. */
  pingPong(delay: number, feedback: number, wet: number): void {
    const dl = new Float32Array(this.length);
    const dr = new Float32Array(this.length);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < this.length; i++) {
        const k = (i - delay + this.length) % this.length;
        dl[i] = (this.left[k] + this.right[k]) * 0.5 + dr[k] * feedback;
        dr[i] = dl[k] * feedback;
      }
    }
    for (let i = 0; i < this.length; i++) {
      this.left[i] += dl[i] * wet;
      this.right[i] += dr[i] * wet;
    }
  }
}

/** Seeded PRNG (mulberry32): the same loops come out on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const midiHz = (note: number): number => 440 * 2 ** ((note - 69) / 12);
const secs = (s: number) => Math.round(s * SAMPLE_RATE);

/** Kick: a sine whose pitch falls from `hi` to `lo` Hz, with a short click. */
export function kick(hi = 140, lo = 48, decay = 0.32): Float32Array {
  const out = new Float32Array(secs(decay * 1.6));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    const f = lo + (hi - lo) * Math.exp(-t * 28);
    phase += (2 * Math.PI * f) / SAMPLE_RATE;
    const amp = Math.exp(-t / (decay * 0.45)) * Math.min(1, i / 20);
    out[i] = Math.tanh(1.6 * Math.sin(phase)) * amp + (i < 60 ? 0.3 * (1 - i / 60) : 0);
  }
  return out;
}

/** Noise through a one-pole high-pass (hats) or a resonant band-pass (claps), with decay. */
export function noiseHit(
  rand: () => number,
  opts: { length: number; decay: number; highpass?: number; bandpass?: number; bursts?: number },
): Float32Array {
  const out = new Float32Array(secs(opts.length));
  let lp = 0;
  let bp1 = 0;
  let bp2 = 0;
  const hpCoef = opts.highpass ? Math.exp((-2 * Math.PI * opts.highpass) / SAMPLE_RATE) : 0;
  const bw = opts.bandpass ? (2 * Math.PI * opts.bandpass) / SAMPLE_RATE : 0;
  const burstGap = secs(0.011);
  for (let i = 0; i < out.length; i++) {
    const n = rand() * 2 - 1;
    let s = n;
    if (opts.highpass) {
      lp = lp * hpCoef + n * (1 - hpCoef);
      s = n - lp;
    }
    if (opts.bandpass) {
      // Chamberlin state-variable filter, band output.
      bp2 += bw * bp1;
      bp1 += bw * (n - bp2 - 0.35 * bp1);
      s = bp1 * 0.6;
    }
    let t = i / SAMPLE_RATE;
    if (opts.bursts && i < burstGap * opts.bursts) t = (i % burstGap) / SAMPLE_RATE;
    out[i] = s * Math.exp(-t / opts.decay);
  }
  return out;
}

export type Wave = "saw" | "square" | "sine" | "tri";

function osc(wave: Wave, phase: number): number {
  const p = phase - Math.floor(phase);
  switch (wave) {
    case "saw":
      return 2 * p - 1;
    case "square":
      return p < 0.5 ? 1 : -1;
    case "tri":
      return 4 * Math.abs(p - 0.5) - 1;
    default:
      return Math.sin(2 * Math.PI * p);
  }
}

export interface ToneOpts {
  wave: Wave;
  /** MIDI notes sounding together (a chord), each with `voices` detuned copies. */
  notes: number[];
  length: number;
  attack?: number;
  decay: number;
  /** Low-pass cutoff that falls from `cutoff` to `cutoffEnd` Hz over the note. */
  cutoff: number;
  cutoffEnd?: number;
  voices?: number;
  detune?: number;
  sustain?: number;
}

/** A subtractive-synth note: detuned oscillators, a sweeping 2-pole low-pass, AD envelope. */
export function tone(o: ToneOpts): Float32Array {
  const out = new Float32Array(secs(o.length));
  const voices = o.voices ?? 1;
  const freqs: number[] = [];
  for (const n of o.notes) {
    for (let v = 0; v < voices; v++) {
      const cents = voices === 1 ? 0 : ((v / (voices - 1)) * 2 - 1) * (o.detune ?? 12);
      freqs.push(midiHz(n) * 2 ** (cents / 1200));
    }
  }
  const phases = freqs.map((_, k) => (k * 0.137) % 1);
  let a = 0;
  let b = 0;
  const attack = o.attack ?? 0.003;
  const sustain = o.sustain ?? 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    let s = 0;
    for (let k = 0; k < freqs.length; k++) {
      phases[k] += freqs[k] / SAMPLE_RATE;
      s += osc(o.wave, phases[k]);
    }
    s /= Math.sqrt(freqs.length);
    const cut = o.cutoffEnd === undefined ? o.cutoff : o.cutoffEnd + (o.cutoff - o.cutoffEnd) * Math.exp(-t * 9);
    const g = 1 - Math.exp((-2 * Math.PI * cut) / SAMPLE_RATE);
    a += g * (s - a);
    b += g * (a - b);
    const env =
      t < attack ? t / attack : sustain + (1 - sustain) * Math.exp(-(t - attack) / o.decay);
    const release = Math.min(1, (out.length - i) / secs(0.01));
    out[i] = b * env * release;
  }
  return out;
}

/** Soft-clips and normalises to `peak`, returning interleaved 16-bit PCM. */
export function master(buf: LoopBuffer, peak = 0.89): Int16Array {
  let max = 0;
  for (let i = 0; i < buf.length; i++) {
    buf.left[i] = Math.tanh(buf.left[i]);
    buf.right[i] = Math.tanh(buf.right[i]);
    max = Math.max(max, Math.abs(buf.left[i]), Math.abs(buf.right[i]));
  }
  const g = max > 0 ? peak / max : 1;
  const pcm = new Int16Array(buf.length * 2);
  for (let i = 0; i < buf.length; i++) {
    pcm[2 * i] = Math.round(buf.left[i] * g * 32767);
    pcm[2 * i + 1] = Math.round(buf.right[i] * g * 32767);
  }
  return pcm;
}

/** A 16-bit stereo WAV file of `pcm` repeated `times` times. */
export function wavFile(pcm: Int16Array, times: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  const size = data.length * times;
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + size, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(size, 40);
  return Buffer.concat([header, ...Array<Buffer>(times).fill(data)]);
}
