import type { FetchResponse } from "../types.js";

/**
 * Lets a canary see the answers a source's own adapter got (ADR 0049): to tell a captcha page
 * from a changed layout, and to hand a drifted answer on to whoever keeps them. Each fetcher has
 * its own taps (ADR 0058: no module-level registry, so two apps in one process do not see each
 * other's answers), and a source's entry hands them on (`SourceAdapterEntry.tapAnswers`); a
 * plugin's requests are made for its sandbox on another call stack, through its network's
 * fetcher, so they are seen too. While a tap is on, a visitor's search of the same source may be
 * seen too: both are that site's answers.
 */
export type AnswerListener = (answer: Pick<FetchResponse, "url" | "status" | "headers" | "bytes">) => void;

export interface AnswerTaps {
  /** Listens to every answer until the returned function is called. */
  tap(listener: AnswerListener): () => void;
  /** Called by the fetch client with each final answer (after redirects). */
  report(answer: FetchResponse): void;
}

export function answerTaps(): AnswerTaps {
  const listeners = new Set<AnswerListener>();
  return {
    tap(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    report(answer) {
      for (const listener of listeners) listener(answer);
    },
  };
}
