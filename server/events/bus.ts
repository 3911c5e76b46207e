import type { CatalogueEvent } from "./catalogue-events.js";

export type Listener = (event: CatalogueEvent) => void;

/**
 * Carries change events from the write service to every cache. Listeners run synchronously in
 * the order they subscribed, so when `publish` returns every kept answer of this process has
 * dropped what changed: the next request reads the new data. A listener that throws is
 * reported and the others still run.
 *
 * The in-process bus serves one instance; several instances get one that also relays events
 * through Redis pub/sub (redis-bus.ts, ADR 0039), which is why events are plain JSON.
 */
export interface EventBus {
  /**
   * Runs this process's listeners before it returns; the promise settles once the other
   * instances have run theirs too (at once in process; bounded with Redis). Never rejects.
   */
  publish(event: CatalogueEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: Listener): () => void;
}

export function inProcessBus(onListenerError: (err: unknown, event: CatalogueEvent) => void = () => {}): EventBus {
  const listeners = new Set<Listener>();
  return {
    publish(event) {
      // A copy through JSON: what a remote instance would receive, and no listener can
      // change what the next one sees.
      const wire = JSON.stringify(event);
      for (const listener of listeners) {
        try {
          listener(JSON.parse(wire) as CatalogueEvent);
        } catch (err) {
          onListenerError(err, event);
        }
      }
      return Promise.resolve();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
