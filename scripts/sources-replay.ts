/**
 * npm run sources:replay -- --source djuu [--version ID] [--json]
 * Replays a source's recorded answers (issue 22, ADR 0051) against the database the server uses
 * (DATA_DIR or DATABASE_URL, read as the server reads them) and prints what is extracted from
 * each: a built-in site through its parser, a plugin's source through the version in use beside
 * the one before (or beside version ID). The network is answered from the recordings only.
 * The embedded database is locked while the server runs: stop it first, or use DATABASE_URL.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config.js";
import { openDatabase } from "../server/db/open.js";
import { AppError } from "../server/errors.js";
import { pluginRepo } from "../server/modules/plugins/repo.js";
import { pluginRuntime } from "../server/modules/plugins/runtime.js";
import { replayService } from "../server/modules/sources/recorded/replay.js";
import { recordedService } from "../server/modules/sources/recorded/service.js";
import type { ReplayAnswer } from "../contracts/recorded.js";

const { values } = parseArgs({ options: { source: { type: "string" }, version: { type: "string" }, json: { type: "boolean", default: false } } });
if (!values.source) {
  console.error("用法: npm run sources:replay -- --source <来源代码> [--version <插件版本编号>] [--json]");
  process.exit(2);
}

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const runtime = pluginRuntime({ logger: quiet, allowAddresses: [] });

function print(answer: ReplayAnswer): void {
  console.log(`来源 ${answer.source}: ${answer.rows.length} 个样本`);
  for (const row of answer.rows) {
    const a = row.answer;
    console.log(`\n#${a.id} ${a.at} ${a.call?.method ?? "search"} HTTP ${a.status} ${a.bytes} B ${a.url}`);
    for (const [label, reading] of [["旧", row.old], ["新", row.new]] as const) {
      if (!reading) continue;
      const what = reading.error ? `出错: ${reading.error}` : `${reading.count} 条${reading.titles.length ? `: ${reading.titles.join(" | ")}` : ""}`;
      console.log(`  ${row.old ? `${label} ` : ""}${reading.version}: ${what}`);
    }
  }
}

let code = 0;
try {
  const replay = replayService(database.db, { recorded: recordedService(database.db), runtime });
  let answer: ReplayAnswer;
  if (values.version) {
    const plugin = await pluginRepo(database.db).bySource(values.source);
    if (!plugin) throw new AppError(404, `来源 ${values.source} 不是插件来源，不能指定版本`);
    answer = await replay.replayPlugin(plugin.platform, Number(values.version));
  } else {
    answer = await replay.replaySource(values.source);
  }
  if (values.json) console.log(JSON.stringify(answer, null, 2));
  else print(answer);
} catch (err) {
  console.error(err instanceof AppError ? err.message : `回放失败: ${(err as Error).stack ?? String(err)}`);
  code = 1;
} finally {
  await runtime.close();
  await database.close();
}
process.exit(code);
