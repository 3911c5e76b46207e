/**
 * Named prepared statements for PGlite (ADR 0068, measured there). PGlite's `query` parses,
 * describes and plans every statement anew (an unnamed statement); a catalogue search spent
 * about half its time planning. Here each distinct SQL text is parsed once under a name of its
 * own; later calls bind and execute it, and PostgreSQL's plan cache does the rest (custom plans
 * for the first five, a generic one after if it costs no more). Built on PGlite's public wire
 * protocol pieces: `protocol.serialize`, `execProtocolStream`, `parse.parseResults`.
 *
 * Used only by the worker thread, whose calls never overlap (so PGlite's own lock is not needed).
 */
import { type PGlite, parse, protocol, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;
/** Distinct statements kept; the least recently used one is closed past it. */
export const MAX_PREPARED = 256;

interface Prepared {
  name: string;
  paramTypes: number[];
}

export function preparedStatements(client: PGlite) {
  const kept = new Map<string, Prepared>();
  let counter = 0;

  /** Runs messages ending with Sync: after an error PostgreSQL skips everything up to the Sync. */
  async function run(messages: Uint8Array[]) {
    const answers = [];
    try {
      for (const message of messages) answers.push(...(await client.execProtocolStream(message, { syncToFs: false })));
    } finally {
      answers.push(...(await client.execProtocolStream(serialize.sync(), { syncToFs: false })));
    }
    return answers;
  }

  async function prepare(text: string): Promise<Prepared> {
    const known = kept.get(text);
    if (known) {
      // Most recently used last.
      kept.delete(text);
      kept.set(text, known);
      return known;
    }
    const name = `djs_${++counter}`;
    const described = await run([serialize.parse({ name, text }), serialize.describe({ type: "S", name })]);
    const paramTypes = described.flatMap((m) => (m.name === "parameterDescription" ? (m as unknown as { dataTypeIDs: number[] }).dataTypeIDs : []));
    const prepared = { name, paramTypes };
    kept.set(text, prepared);
    if (kept.size > MAX_PREPARED) {
      const [oldestText, oldest] = kept.entries().next().value!;
      kept.delete(oldestText);
      await run([serialize.close({ type: "S", name: oldest.name })]);
    }
    return prepared;
  }

  return {
    /** As `client.query`, through the statement prepared for this text. */
    async query(
      text: string,
      params: unknown[] = [],
      options: { rowMode?: "object" | "array"; parsers?: Record<number, (value: string) => unknown> } = {},
      retried = false,
    ): Promise<Results> {
      const { name, paramTypes } = await prepare(text);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = client.serializers[paramTypes[i]!];
        return serializer ? serializer(value) : String(value);
      });
      let answers;
      try {
        answers = await run([serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({})]);
      } catch (err) {
        // A statement whose result changed under it (a migration altered its tables) or that the
        // session lost is prepared again, once; any other error (a constraint…) is the caller's.
        const code = (err as { code?: string }).code;
        if ((code !== "0A000" && code !== "26000") || retried) throw err;
        kept.delete(text);
        await run([serialize.close({ type: "S", name })]).catch(() => undefined);
        return this.query(text, params, options, true);
      }
      await client.syncToFs();
      return parse.parseResults(answers, client.parsers, { rowMode: options.rowMode, parsers: options.parsers })[0]!;
    },
    /** How many statements are kept (tests). */
    size: () => kept.size,
  };
}
