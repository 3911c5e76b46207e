/**
 * npm run seed -- [--suites N] [--singles M] [--plays P]
 * Seeds (or grows) the demo catalogue of the database named by the environment:
 * DATABASE_URL (PostgreSQL) or the embedded PGlite under DATA_DIR (default ./data).
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { loadConfig } from "../../config.js";
import { prepareDemoMedia } from "../../demo-media/prepare-demo-media.js";
import { openDatabase } from "../open.js";
import { seedDemoCatalogue } from "./index.js";

const { values } = parseArgs({
  options: {
    suites: { type: "string" },
    singles: { type: "string" },
    plays: { type: "string" },
  },
});

function count(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number >= 0, got "${raw}"`);
  return n;
}

const config = loadConfig();
const logger = pino({ name: "seed", level: config.logLevel });
const { dataDir, databaseUrl } = config;
const t0 = Date.now();
const handle = await openDatabase({ databaseUrl, dataDir, logger });
const tOpen = Date.now();
try {
  const media = await prepareDemoMedia(dataDir);
  const tMedia = Date.now();
  const result = await seedDemoCatalogue(handle, {
    media,
    suites: count("suites", values.suites),
    singles: count("singles", values.singles),
    plays: count("plays", values.plays),
    logger,
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `seed on ${handle.engine}: open ${s(tOpen - t0)}, media ${s(tMedia - tOpen)}, seed ${s(result.ms)}; ` +
      `added ${result.added.mixes} suites, ${result.added.singles} singles, ${result.added.plays} plays; ` +
      `totals ${result.totals.mixes} / ${result.totals.singles} / ${result.totals.plays}`,
  );
} finally {
  await handle.close();
}
