import { PassThrough, type Readable } from "node:stream";
import { searchStreamDoneSchema, searchStreamSourceSchema } from "@contracts/search";
import { encodeAnswer } from "../../http/encode-answer.js";
import type { SearchEvent, SearchRun } from "./fanout.js";

/** The stream's headers: never cached, never transformed, never buffered by nginx (`X-Accel-Buffering`). */
export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

// One frame per event, made once: every listener of a run, and every replay of a kept one, writes the same text.
const frames = new WeakMap<SearchEvent, string>();

/** `event: source|done` and one `data:` line (JSON escapes every line break, so one line is enough). */
export function frameOf(event: SearchEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    // Each event's data is encoded through its schema, as every JSON answer is (ADR 0057).
    const data = event.event === "source" ? encodeAnswer(searchStreamSourceSchema, event.data) : encodeAnswer(searchStreamDoneSchema, event.data);
    frame = `event: ${event.event}\ndata: ${data}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

/**
 * A run as Server-Sent Events: what it has published so far at once, then each event as it comes,
 * ending after `done`. `closed` is the client going away: this listener is dropped and nothing
 * else stops (the run is shared, and finishing fills the kept answer).
 */
export function eventStream(run: SearchRun, closed: { once(event: "close", listener: () => void): unknown }): Readable {
  const body = new PassThrough();
  let unsubscribe = () => {};
  const stop = () => {
    unsubscribe();
    unsubscribe = () => {};
  };
  // The client's hint to wait a little before reconnecting; the page closes the stream after `done` anyway.
  body.write("retry: 3000\n\n");
  unsubscribe = run.subscribe((event) => {
    if (body.destroyed || body.writableEnded) return;
    body.write(frameOf(event));
    if (event.event === "done") {
      body.end();
      // Synchronous replays call back before `subscribe` returns: nothing to drop then.
      queueMicrotask(stop);
    }
  });
  closed.once("close", stop);
  body.once("close", stop);
  return body;
}
