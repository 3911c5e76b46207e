import { useEffect, useState } from "react";
import { importWithReload } from "./chunk-reload";

/**
 * A module that is no part of a page's first load (ADR 0077): fetched once, at the first
 * `load()`; a failed fetch reloads the page (chunk-reload) or is tried again at the next call.
 */
export interface OnDemand<T> {
  load(): Promise<T>;
  /** Fire and forget: what a sign of intent calls (focus, a bar that appears). */
  preload(): void;
  /** The module once it has arrived, else null: a part already fetched renders in the same commit. */
  loaded(): T | null;
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  const load = () =>
    (pending ??= importWithReload(importer)().then(
      (module) => (value = module),
      (err: unknown) => {
        pending = null;
        throw err;
      },
    ));
  return { load, preload: () => void load().catch(() => undefined), loaded: () => value };
}

/**
 * The module while `wanted` (fetched then if it is not here yet), else what has arrived so far.
 * No Suspense: until it arrives, the caller renders what it showed before (no fallback frame).
 */
export function useOnDemand<T>(part: OnDemand<T>, wanted: boolean, onFail?: () => void): T | null {
  const [, arrived] = useState(0);
  const value = part.loaded();
  useEffect(() => {
    if (!wanted || value) return;
    let live = true;
    part.load().then(
      () => live && arrived((n) => n + 1),
      () => live && onFail?.(),
    );
    return () => {
      live = false;
    };
    // `onFail` is made anew each render; what to load and whether are the keys.
  }, [part, wanted, value]);
  return value;
}
