import type { FetchResponse } from "../types.js";

/**
 * Lets a canary see the answers a source's own adapter got (ADR 0049): to tell a captcha page
 * from a changed layout, and to hand a drifted answer on to whoever keeps them. Keyed by source
 * code, because a plugin's requests are made for its sandbox on another call stack. While a tap
 * is on, a visitor's search of the same source may be seen too: both are that site's answers.
 */
export type AnswerListener = (answer: Pick<FetchResponse, "url" | "status" | "headers" | "bytes">) => void;

const taps = new Map<string, Set<AnswerListener>>();

/** Listens to every answer `source`'s fetchers get until the returned function is called. */
export function tapAnswers(source: string, listener: AnswerListener): () => void {
  let set = taps.get(source);
  if (!set) taps.set(source, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && taps.get(source) === set) taps.delete(source);
  };
}

/** Called by the fetch client with each final answer (after redirects). */
export function reportAnswer(source: string, answer: FetchResponse): void {
  const set = taps.get(source);
  if (!set) return;
  for (const listener of set) listener(answer);
}
