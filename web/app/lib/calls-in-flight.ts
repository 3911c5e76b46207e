/**
 * The calls of one kind (member, admin) sent and not yet answered. A logout waits for them before
 * it ends the session: answered after it, they would come back 401 (a browser logs every 4xx
 * answer as an error, and a 401 reads as a lost session).
 */
export function callsInFlight() {
  const pending = new Set<Promise<unknown>>();
  return {
    /** Counts `call` as in flight until it settles; returns it unchanged. */
    track<T>(call: Promise<T>): Promise<T> {
      pending.add(call);
      const done = () => void pending.delete(call);
      call.then(done, done);
      return call;
    },
    /** Resolves once every call sent before now has settled, or after `maxMs` (a call that hangs does not hold a logout). */
    settled(maxMs: number): Promise<void> {
      if (pending.size === 0) return Promise.resolve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const all = Promise.allSettled([...pending]).then(() => undefined);
      const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
      return Promise.race([all, bound]).finally(() => clearTimeout(timer));
    },
  };
}

/** How long a logout waits for the calls in flight before it ends the session anyway. */
export const LOGOUT_WAITS_FOR_CALLS_MS = 2_000;
