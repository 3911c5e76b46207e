/**
 * Writes each demo loop as a WAV of `repeats` back-to-back periods:
 *   tsx scripts/demo-assets/synth.ts OUT_DIR [repeats]
 * Three periods let the build cut the middle one out of the mp3 encoding (see slice-mp3.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wavFile } from "./synth-dsp.js";
import { DESIGNS, renderLoop } from "./synth-loops.js";

const [outDir, repeats = "3"] = process.argv.slice(2);
if (!outDir) throw new Error("usage: synth.ts OUT_DIR [repeats]");
mkdirSync(outDir, { recursive: true });
DESIGNS.forEach((d, i) => {
  const file = join(outDir, `loop${i + 1}-${d.name}.wav`);
  writeFileSync(file, wavFile(renderLoop(d), Number(repeats)));
  console.log(file);
});
