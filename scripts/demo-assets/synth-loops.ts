/**
 * The four demo loops: 16 bars of 4/4 at 147000/1148 ≈ 128.05 BPM. That tempo makes one loop
 * exactly 1148 MPEG audio frames (1148 × 1152 samples at 44.1 kHz, 29.989 s), so whole loops
 * can be cut from an encoding at frame boundaries and chained into a long mix without drift.
 */
import { kick, LoopBuffer, master, noiseHit, rng, tone, type ToneOpts, SAMPLE_RATE } from "./synth-dsp.js";

export const FRAMES_PER_LOOP = 1148;
export const LOOP_SAMPLES = FRAMES_PER_LOOP * 1152;
const STEP = LOOP_SAMPLES / 256; // a 16th note: 5166 samples
const BEAT = STEP * 4;

interface Design {
  name: string;
  seed: number;
  /** One chord a bar, cycling every 4 bars (MIDI notes). */
  chords: number[][];
  bassRoots: number[];
  kick: { hi: number; lo: number; decay: number; gain: number };
  bass: { steps: number[]; octaveUp?: number[]; opts: Omit<ToneOpts, "notes">; gain: number };
  closedHats: number[];
  openHats: number[];
  claps: number[];
  stab?: { steps: number[]; opts: Omit<ToneOpts, "notes">; gain: number };
  pad?: { opts: Omit<ToneOpts, "notes">; gain: number };
  /** Second half only: chord-tone indices per 16th (null = rest), played an octave up. */
  lead?: { pattern: (number | null)[]; opts: Omit<ToneOpts, "notes">; gain: number; delaySteps: number };
  pump: number;
}

const sec = (steps: number) => (steps * STEP) / SAMPLE_RATE;

export const DESIGNS: Design[] = [
  {
    name: "deep-house-a-minor",
    seed: 11,
    chords: [[57, 60, 64, 67], [53, 57, 60, 64], [55, 60, 64, 67], [55, 59, 62, 67]],
    bassRoots: [33, 29, 36, 31],
    kick: { hi: 130, lo: 47, decay: 0.3, gain: 0.95 },
    bass: { steps: [2, 6, 10, 14, 15], gain: 0.5, opts: { wave: "saw", length: sec(1.6), decay: 0.12, cutoff: 520, cutoffEnd: 180 } },
    closedHats: [1, 3, 5, 7, 9, 11, 13, 15],
    openHats: [2, 6, 10, 14],
    claps: [4, 12],
    stab: { steps: [3, 10], gain: 0.32, opts: { wave: "saw", length: sec(2), decay: 0.14, cutoff: 2600, cutoffEnd: 500, voices: 3, detune: 9 } },
    lead: { pattern: [0, null, null, 2, null, null, 1, null, 3, null, null, 2, null, 4, null, null], delaySteps: 3, gain: 0.22, opts: { wave: "square", length: sec(2), decay: 0.09, cutoff: 3200, cutoffEnd: 900 } },
    pump: 0.55,
  },
  {
    name: "disco-d-minor",
    seed: 23,
    chords: [[62, 65, 69], [58, 62, 65], [60, 64, 67], [57, 61, 64]],
    bassRoots: [38, 34, 36, 33],
    kick: { hi: 120, lo: 52, decay: 0.24, gain: 0.85 },
    bass: { steps: [0, 2, 4, 6, 8, 10, 12, 14], octaveUp: [2, 6, 10, 14], gain: 0.42, opts: { wave: "square", length: sec(1.5), decay: 0.1, cutoff: 1100, cutoffEnd: 260 } },
    closedHats: [0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15],
    openHats: [2, 6, 10, 14],
    claps: [4, 12],
    stab: { steps: [2, 5, 10, 13], gain: 0.2, opts: { wave: "saw", length: sec(1), decay: 0.05, cutoff: 4200, cutoffEnd: 1500, voices: 2, detune: 6 } },
    pad: { gain: 0.16, opts: { wave: "saw", length: sec(16), attack: 0.12, decay: 0.9, sustain: 0.6, cutoff: 2400, voices: 5, detune: 14 } },
    lead: { pattern: [0, null, 3, null, 0, null, 3, null, 1, null, 4, null, 2, null, 5, null], delaySteps: 0, gain: 0.18, opts: { wave: "saw", length: sec(1.8), decay: 0.14, cutoff: 3600, voices: 3, detune: 10 } },
    pump: 0.3,
  },
  {
    name: "progressive-e-minor",
    seed: 37,
    chords: [[64, 67, 71], [60, 64, 67], [62, 67, 71], [62, 66, 69]],
    bassRoots: [40, 36, 43, 38],
    kick: { hi: 150, lo: 45, decay: 0.33, gain: 1 },
    bass: { steps: [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15], gain: 0.36, opts: { wave: "saw", length: sec(0.9), decay: 0.07, cutoff: 800, cutoffEnd: 220 } },
    closedHats: [2, 6, 10, 14, 3, 7, 11, 15],
    openHats: [],
    claps: [4, 12],
    pad: { gain: 0.13, opts: { wave: "tri", length: sec(16), attack: 0.3, decay: 1.2, sustain: 0.7, cutoff: 1800, voices: 3, detune: 8 } },
    lead: { pattern: [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 2, 3], delaySteps: 3, gain: 0.16, opts: { wave: "saw", length: sec(1.2), decay: 0.06, cutoff: 4500, cutoffEnd: 800 } },
    pump: 0.65,
  },
  {
    name: "electro-f-minor",
    seed: 53,
    chords: [[65, 68, 72], [61, 65, 68], [63, 68, 72], [63, 67, 70]],
    bassRoots: [29, 25, 32, 27],
    kick: { hi: 170, lo: 50, decay: 0.38, gain: 1 },
    bass: { steps: [2, 6, 10, 14], gain: 0.55, opts: { wave: "saw", length: sec(2), decay: 0.2, cutoff: 700, cutoffEnd: 160, voices: 2, detune: 14 } },
    closedHats: [0, 2, 4, 6, 8, 10, 12, 14],
    openHats: [2, 6, 10, 14],
    claps: [4, 12],
    stab: { steps: [0, 3, 6, 10, 12], gain: 0.22, opts: { wave: "saw", length: sec(2.5), decay: 0.16, cutoff: 3000, cutoffEnd: 700, voices: 5, detune: 22 } },
    lead: { pattern: [0, null, 0, 2, null, 0, 3, null, 2, null, 1, null, 0, null, 4, null], delaySteps: 6, gain: 0.2, opts: { wave: "saw", length: sec(1.8), decay: 0.12, cutoff: 5000, cutoffEnd: 1400, voices: 5, detune: 20 } },
    pump: 0.7,
  },
];

const chordTone = (chord: number[], idx: number) =>
  chord[idx % chord.length] + 12 * Math.floor(idx / chord.length);

/** Renders one design to interleaved 16-bit PCM of exactly LOOP_SAMPLES frames. */
export function renderLoop(d: Design): Int16Array {
  const rand = rng(d.seed);
  const drums = new LoopBuffer(LOOP_SAMPLES);
  const music = new LoopBuffer(LOOP_SAMPLES);
  const lead = new LoopBuffer(LOOP_SAMPLES);
  const cache = new Map<string, Float32Array>();
  const note = (opts: Omit<ToneOpts, "notes">, notes: number[]) => {
    const key = JSON.stringify([opts, notes]);
    let v = cache.get(key);
    if (!v) cache.set(key, (v = tone({ ...opts, notes })));
    return v;
  };
  const kickVoice = kick(d.kick.hi, d.kick.lo, d.kick.decay);
  for (let bar = 0; bar < 16; bar++) {
    const c = bar % 4;
    const at = (step: number) => Math.round((bar * 16 + step) * STEP);
    for (const s of [0, 4, 8, 12]) drums.add(at(s), kickVoice, d.kick.gain * 0.8);
    for (const s of d.claps) {
      drums.add(at(s), noiseHit(rand, { length: 0.25, decay: 0.06, bandpass: 1400, bursts: 3 }), 0.55, 0.1);
    }
    for (const s of d.closedHats) {
      drums.add(at(s), noiseHit(rand, { length: 0.06, decay: 0.012, highpass: 7000 }), s % 2 ? 0.22 : 0.32, 0.3);
    }
    for (const s of d.openHats) {
      drums.add(at(s), noiseHit(rand, { length: 0.3, decay: 0.07, highpass: 6000 }), 0.3, -0.25);
    }
    for (const s of d.bass.steps) {
      const n = d.bassRoots[c] + (d.bass.octaveUp?.includes(s) ? 12 : 0);
      music.add(at(s), note(d.bass.opts, [n]), d.bass.gain);
    }
    if (d.stab) for (const s of d.stab.steps) music.add(at(s), note(d.stab.opts, d.chords[c]), d.stab.gain, s % 3 ? 0.2 : -0.2);
    if (d.pad) music.add(at(0), note(d.pad.opts, d.chords[c]), d.pad.gain);
    if (d.lead && bar >= 8) {
      d.lead.pattern.forEach((idx, s) => {
        if (idx !== null) lead.add(at(s), note(d.lead!.opts, [chordTone(d.chords[c], idx) + 12]), d.lead!.gain, ((s % 4) - 1.5) * 0.2);
      });
    }
  }
  if (d.lead && d.lead.delaySteps > 0) lead.pingPong(Math.round(d.lead.delaySteps * STEP), 0.38, 0.45);
  music.mix(lead, 1);
  // Sidechain pump: the music ducks under every kick, the house sound.
  const out = new LoopBuffer(LOOP_SAMPLES);
  out.mix(drums, 1);
  out.mix(music, 1, (i) => 1 - d.pump * Math.exp(-((i % BEAT) / SAMPLE_RATE) / 0.09));
  return master(out);
}
