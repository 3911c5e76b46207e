/**
 * The JSON log's destination (line-writer.ts): one write a turn, nothing lost or reordered when
 * the output is a full pipe, bounded when it never drains, quiet when it is gone.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lineWriter } from "./line-writer.js";

const turn = () => new Promise((resolve) => setImmediate(resolve));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

/** A FIFO opened read-write and non-blocking (writes fill its 64 KB, then get EAGAIN), and a reader of it. */
function fullablePipe(dir: string) {
  const fifo = path.join(dir, "fifo");
  execFileSync("mkfifo", [fifo]);
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let got = "";
  const chunk = Buffer.alloc(65536);
  return {
    fd,
    /** Reads what the pipe holds until `done(all read so far)`. */
    readUntil: (done: (got: string) => boolean) =>
      until(() => {
        try {
          got += chunk.toString("utf8", 0, fs.readSync(reader, chunk));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
        }
        return done(got);
      }).then(() => got),
    close: () => [fd, reader].forEach((d) => fs.closeSync(d)),
  };
}

describe("lineWriter", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "line-writer-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes a turn's lines together at the end of the turn, in order", async () => {
    const file = path.join(dir, "log");
    const fd = fs.openSync(file, "w");
    const writes: number[] = [];
    const writeSync = fs.writeSync;
    // Count the system calls: one for the turn, not one a line.
    (fs as { writeSync: unknown }).writeSync = (...args: Parameters<typeof fs.writeSync>) => {
      const n = (writeSync as (...a: unknown[]) => number)(...args);
      writes.push(n);
      return n;
    };
    try {
      const writer = lineWriter(fd);
      for (let i = 0; i < 1000; i++) writer.write(`{"i":${i}}\n`);
      expect(fs.readFileSync(file, "utf8")).toBe("");
      await turn();
      await turn();
      const lines = fs.readFileSync(file, "utf8").trim().split("\n");
      expect(lines).toEqual(Array.from({ length: 1000 }, (_, i) => `{"i":${i}}`));
      expect(writes.length).toBe(1);
      writer.write("后来的一行\n");
      await turn();
      await turn();
      expect(fs.readFileSync(file, "utf8").endsWith("后来的一行\n")).toBe(true);
      expect(writes.length).toBe(2);
      writer.close();
    } finally {
      (fs as { writeSync: unknown }).writeSync = writeSync;
      fs.closeSync(fd);
    }
  });

  it("keeps what a full pipe does not take and writes it, in order, once the pipe is read", async () => {
    const pipe = fullablePipe(dir);
    try {
      const writer = lineWriter(pipe.fd);
      const expected: string[] = [];
      for (let t = 0; t < 20; t++) {
        for (let i = 0; i < 200; i++) {
          const line = `{"turn":${t},"i":${i},"pad":"${"x".repeat(60)}"}`;
          expected.push(line);
          writer.write(`${line}\n`);
        }
        await turn();
      }
      // 20 turns of ~15 KB: more than the pipe holds (64 KB) until someone reads.
      const got = await pipe.readUntil((text) => text.split("\n").length - 1 === expected.length);
      expect(got.trim().split("\n")).toEqual(expected);
      expect(writer.dropped).toBe(0);
      writer.close();
    } finally {
      pipe.close();
    }
  });

  it("drops lines past its bound while the output takes nothing, and says how many once it does", async () => {
    const pipe = fullablePipe(dir);
    try {
      const writer = lineWriter(pipe.fd, { maxPendingBytes: 100_000 });
      const line = `${"y".repeat(99)}\n`;
      for (let i = 0; i < 3000; i++) {
        writer.write(line);
        if (i % 100 === 0) await turn();
      }
      expect(writer.dropped).toBeGreaterThan(0);
      const got = await pipe.readUntil((text) => text.includes("log lines dropped"));
      const kept = got.split("\n").filter((l) => l === line.trim()).length;
      const notice = JSON.parse(got.split("\n").find((l) => l.includes("log lines dropped"))!);
      expect(notice).toMatchObject({ level: 40, dropped: writer.dropped });
      expect(kept + writer.dropped).toBe(3000);
      writer.close();
    } finally {
      pipe.close();
    }
  });

  it("stops writing, without throwing, when its output refuses lines (EBADF, EPIPE)", async () => {
    const file = path.join(dir, "read-only");
    fs.writeFileSync(file, "");
    const fd = fs.openSync(file, "r");
    try {
      const writer = lineWriter(fd);
      writer.write("lost\n");
      await turn();
      await turn();
      expect(() => writer.write("also lost\n")).not.toThrow();
      await turn();
      writer.close();
    } finally {
      fs.closeSync(fd);
    }
  });
});
