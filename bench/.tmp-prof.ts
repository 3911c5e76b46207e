import { buildApp } from "../server/app.js";
import { loadConfig } from "../server/config.js";
import { openDatabase } from "../server/db/open.js";
const config = loadConfig({ ...process.env, NODE_ENV: "production", LOG_LEVEL: "silent" });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = await buildApp({ config, database, logger: false, web: false });
const urls = (process.argv[2] ?? "/api/forntend/getsort?diyname=manyao&page=3").split(",");
for (const url of urls) {
  for (let i = 0; i < 50; i++) await app.inject(url);
  const t = performance.now();
  const n = 300;
  for (let i = 0; i < n; i++) await app.inject(url);
  console.log(url, ((performance.now() - t) / n).toFixed(2), "ms/req sequential");
}
await app.close(); await database.close();
