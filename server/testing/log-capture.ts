import pino from "pino";

export interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

/** A pino logger whose lines are kept, parsed, for asserting what was (or was not) logged. */
export function captureLog(level = "info") {
  const lines: LogLine[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return {
    logger,
    lines,
    /** Lines at error level or above (pino: 50 error, 60 fatal). */
    errors: () => lines.filter((l) => l.level >= 50),
  };
}
