/**
 * Cuts frames [start, start + count) out of an mp3 into a new file with no tags:
 *   tsx scripts/demo-assets/slice-mp3.ts IN.mp3 OUT.mp3 START COUNT
 * Used on a 3-period encoding of a loop: the middle period's frames repeat seamlessly, and
 * with the bit reservoir off (every main_data_begin = 0) each frame decodes on its own.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mainDataBegin, parseMp3, readFrameHeader } from "../../server/demo-media/mp3-frames.js";

const [input, output, startArg, countArg] = process.argv.slice(2);
if (!input || !output || !startArg || !countArg) throw new Error("usage: slice-mp3.ts IN OUT START COUNT");
const buf = readFileSync(input);
const mp3 = parseMp3(buf);
const start = Number(startArg);
const count = Number(countArg);
if (mp3.offsets.length < start + count) throw new Error(`${input}: only ${mp3.offsets.length} frames`);
const parts: Buffer[] = [];
for (let i = start; i < start + count; i++) {
  const at = mp3.offsets[i];
  const h = readFrameHeader(buf, at)!;
  if (mainDataBegin(buf, at, h) !== 0) throw new Error(`frame ${i} uses the bit reservoir`);
  parts.push(buf.subarray(at, at + mp3.lengths[i]));
}
writeFileSync(output, Buffer.concat(parts));
console.log(`${output}: ${count} frames, ${(count * mp3.samplesPerFrame) / mp3.sampleRate} s, ${mp3.bitrateKbps} kbps`);
