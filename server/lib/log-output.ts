/**
 * Where the log goes and how it reads (ADR 0044). Piped or under a process manager: pino's JSON,
 * one object per line, for machines. On a terminal: one readable line per entry, formatted here
 * (a few dozen lines instead of pino-pretty and its worker thread), and a line marked
 * `banner: true` (the first-start admin password) boxed so it cannot be missed.
 */
import pino, { type Logger } from "pino";
import { lineWriter } from "./line-writer.js";

export type LogFormat = "json" | "pretty";

/** LOG_FORMAT when set; otherwise readable on a terminal, JSON when piped. */
export function logFormatFor(configured: LogFormat | undefined, stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return configured ?? (stdout.isTTY ? "pretty" : "json");
}

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** The server's root logger. */
export function createLogger(options: { level: string; format: LogFormat; out?: Output }): Logger {
  const out = options.out ?? process.stdout;
  // The lines of one event-loop turn in one write(2), on the thread (line-writer.ts, ADR 0067).
  if (options.format === "json") return pino({ level: options.level }, options.out ?? lineWriter(1));
  const color = !!out.isTTY && !process.env.NO_COLOR;
  return pino({ level: options.level }, { write: (line: string) => void out.write(formatLogLine(line, { color })) });
}

const LEVELS: Record<number, [name: string, color: number]> = {
  10: ["TRACE", 90],
  20: ["DEBUG", 34],
  30: ["INFO ", 32],
  40: ["WARN ", 33],
  50: ["ERROR", 31],
  60: ["FATAL", 35],
};

/** Fields shown in the line's own places, or not worth a terminal's width. */
const SHOWN = new Set(["level", "time", "pid", "hostname", "msg", "reqId", "req", "res", "responseTime", "err", "banner"]);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function clock(time: unknown): string {
  const d = typeof time === "number" ? new Date(time) : new Date();
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

function value(v: unknown): string {
  if (typeof v === "string") return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** Terminal columns a text takes (CJK characters take two). */
function width(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  return n;
}

/** The message in a box, one part per line (parts are separated by two or more spaces). */
function banner(msg: string, paint: (code: string, text: string) => string): string {
  const lines = msg.split(/\s{2,}/).filter((l) => l !== "");
  const inner = Math.max(...lines.map(width)) + 2;
  const rule = "─".repeat(inner);
  const body = lines.map((l) => paint("1;33", `│ ${l}${" ".repeat(inner - 2 - width(l))} │`));
  return ["", paint("1;33", `┌${rule}┐`), ...body, paint("1;33", `└${rule}┘`), ""].join("\n");
}

/** One JSON log line as readable text (ending in a newline); a line that is not JSON passes as is. */
export function formatLogLine(line: string, { color = false }: { color?: boolean } = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith("\n") ? line : `${line}\n`;
  }
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const [levelName, levelColor] = LEVELS[Number(entry.level)] ?? ["LOG  ", 0];
  // The banner's level stands alone at the line's end: no padding after it.
  const parts = [paint("2", clock(entry.time)), paint(String(levelColor), entry.banner === true ? levelName.trimEnd() : levelName)];
  if (typeof entry.reqId === "string") parts.push(paint("36", `[${entry.reqId.slice(0, 8)}]`));
  const msg = typeof entry.msg === "string" ? entry.msg : "";
  if (entry.banner === true) return `${parts.join(" ")}${banner(msg, paint)}\n`;
  if (msg) parts.push(msg);

  const req = entry.req as { method?: string; url?: string } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ""}`);
  const res = entry.res as { statusCode?: number } | undefined;
  if (res?.statusCode !== undefined) parts.push(paint(res.statusCode >= 500 ? "31" : res.statusCode >= 400 ? "33" : "32", String(res.statusCode)));
  if (typeof entry.responseTime === "number") parts.push(`${entry.responseTime.toFixed(1)} ms`);
  for (const [key, v] of Object.entries(entry)) if (!SHOWN.has(key)) parts.push(paint("2", `${key}=`) + value(v));

  let text = parts.join(" ");
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err) text += `\n    ${(err.stack ?? `${err.type ?? "Error"}: ${err.message ?? ""}`).split("\n").join("\n    ")}`;
  return `${text}\n`;
}
