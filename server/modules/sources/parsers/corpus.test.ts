/**
 * The recorded corpus (issue 22): answers in the sites' real shapes, one directory a site under
 * fixtures/, each with a manifest.json naming every answer's URL, status, headers and what must
 * be extracted from it, by the built-in site's parser (`builtin`) and by each repository plugin
 * that reads that site (`plugins`, the call replayed with its arguments). Every built-in parser
 * and every plugin in plugins/ must have answers here. Plugins run in the real sandbox, their
 * network answered from the corpus only (as a replay in the back office is).
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { PluginSandbox } from "../../plugins/sandbox/host.js";
import { pluginCode } from "../../plugins/sites/harness.js";
import { BUILTIN_READERS, readRecorded } from "../recorded/builtin-readers.js";
import { replayNetwork } from "../recorded/replay-network.js";
import { summarise } from "../recorded/replay.js";

interface Expectation {
  count?: number;
  /** The first titles, in order. */
  titles?: string[];
  /** A part of the error message: the answer must not be read. */
  error?: string;
  /** Why (an answer that cannot be replayed says so). */
  note?: string;
}

interface CorpusAnswer {
  file: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  builtin?: Expectation & { reader?: string };
  /** Answers a request of a call whose expectation is on another answer (a challenge's reload, a chart a search reads). */
  support?: true;
  plugins?: Record<string, Expectation & { call: { method: string; args: unknown[] } }>;
}

interface Manifest {
  /** The built-in source whose parser reads these answers; null for a site only plugins read. */
  source: string | null;
  origin: string;
  plugins: Record<string, { variables: Record<string, string> }>;
  answers: CorpusAnswer[];
}

const root = new URL("./fixtures/", import.meta.url);
const sites = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const manifests = sites.map((site) => ({ site, manifest: JSON.parse(readFileSync(new URL(`${site}/manifest.json`, root), "utf8")) as Manifest }));
const bodyOf = (site: string, file: string) => readFileSync(new URL(`${site}/${file}`, root));
const pluginFiles = readdirSync(new URL("../../../../plugins/", import.meta.url)).filter((f) => f.endsWith(".js")).sort();

function check(got: { count: number; titles: string[]; error: string | null }, want: Expectation, what: string) {
  if (want.error !== undefined) {
    expect(got.error, what).toContain(want.error);
    return;
  }
  expect(got.error, what).toBeNull();
  if (want.count !== undefined) expect(got.count, what).toBe(want.count);
  if (want.titles) expect(got.titles.slice(0, want.titles.length), what).toEqual(want.titles);
}

describe("the recorded corpus", () => {
  it("has answers for every built-in parser and every repository plugin", () => {
    const builtins = new Set(manifests.flatMap(({ manifest }) => (manifest.source && manifest.answers.some((a) => a.builtin) ? [manifest.source] : [])));
    expect([...builtins].sort()).toEqual(Object.keys(BUILTIN_READERS).sort());
    const plugins = new Set(manifests.flatMap(({ manifest }) => manifest.answers.flatMap((a) => Object.keys(a.plugins ?? {}))));
    expect([...plugins].sort()).toEqual(pluginFiles);
  });

  it("names a file, a URL, a status and an expectation for every answer, and every file is named", () => {
    for (const { site, manifest } of manifests) {
      const files = readdirSync(new URL(`${site}/`, root)).filter((f) => f !== "manifest.json").sort();
      expect(manifest.answers.map((a) => a.file).sort(), site).toEqual(files);
      for (const a of manifest.answers) {
        expect(() => new URL(a.url), `${site}/${a.file}`).not.toThrow();
        expect(a.status, `${site}/${a.file}`).toBeGreaterThanOrEqual(100);
        expect(a.builtin ?? a.plugins ?? a.support, `${site}/${a.file} expects nothing`).toBeTruthy();
      }
    }
  });
});

describe.each(manifests.filter(({ manifest }) => manifest.source))("built-in parser over the corpus of $site", ({ site, manifest }) => {
  it.each(manifest.answers.filter((a) => a.builtin))("$file", (answer) => {
    const read = readRecorded(manifest.source!, { url: answer.url, status: answer.status, headers: answer.headers, body: bodyOf(site, answer.file) });
    check(read, answer.builtin!, `${site}/${answer.file}`);
    if (answer.builtin!.reader) expect(read.reader).toBe(answer.builtin!.reader);
  });
});

describe.each(manifests.filter(({ manifest }) => Object.keys(manifest.plugins).length))("repository plugins over the corpus of $site", ({ site, manifest }) => {
  // Every answer of the site answers the plugin's requests, as the back office's replay does.
  const network = replayNetwork(manifest.answers.map((a) => ({ url: a.url, status: a.status, headers: a.headers, body: bodyOf(site, a.file) })));
  const sandbox = new PluginSandbox({ workers: 1, fetch: (_instance, request) => network.answer(request) });
  afterAll(() => sandbox.close());

  for (const [file, { variables }] of Object.entries(manifest.plugins)) {
    const cases = manifest.answers.flatMap((a) => (a.plugins?.[file] ? [{ name: `${file} ${a.plugins[file].call.method} ${a.file}`, want: a.plugins[file] }] : []));
    it.each(cases)("$name", async ({ want }) => {
      const loaded = await sandbox.load(file, pluginCode(file), variables);
      const version = String(loaded.exports.version);
      let got;
      try {
        got = summarise(version, await sandbox.call(file, want.call.method, want.call.args));
      } catch (err) {
        got = { version, count: 0, titles: [], error: err instanceof Error ? err.message : String(err) };
      }
      check(got, want, file);
    });
  }
});
