import type { RedisLink } from "../lib/redis.js";
import { type EventBus, inProcessBus } from "./bus.js";
import type { CatalogueEvent } from "./catalogue-events.js";

/** Longest a publisher waits for the other instances' acknowledgements. */
export const ACK_TIMEOUT_MS = 1_000;
/** Events kept while Redis is away; past this the others are told to drop everything instead. */
const MAX_UNSENT = 1_000;

/** On the wire: an event, or "events were lost: drop every kept answer". */
type Wire = { from: string; id: string; event: CatalogueEvent } | { from: string; id: string; resync: true };

export interface RelayedBusOptions {
  link: Pick<RedisLink, "commands" | "subscriber" | "channel" | "instanceId">;
  onListenerError?: (err: unknown, event: CatalogueEvent) => void;
  /** This instance may have missed events: drop every kept answer and re-read what events rebuild. */
  onResync: () => void;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  ackTimeoutMs?: number;
}

export interface RelayedBus extends EventBus {
  /** Subscribes; resolves once the subscription stands (or at once if Redis is away: it follows). */
  start(): Promise<void>;
  close(): void;
}

/**
 * The change-event bus of several instances (ADR 0039). `publish` runs this process's listeners
 * synchronously, as the in-process bus does, then relays the event through Redis pub/sub; every
 * instance's subscriber runs its listeners and acknowledges to the publisher. PUBLISH answers how
 * many subscribers received the event (this instance's own among them), so the publisher waits
 * for exactly that many acknowledgements, at most ACK_TIMEOUT_MS: when `publish` settles, every
 * instance subscribed at that moment has dropped what changed, and the writer's response can go.
 *
 * Nothing is lost silently: an event that cannot be relayed (Redis away) is kept and sent when
 * Redis returns, and an instance whose subscription broke drops every kept answer when it is
 * back (it may have missed events meanwhile).
 */
export function redisRelayedBus({ link, onListenerError, onResync, logger, ackTimeoutMs = ACK_TIMEOUT_MS }: RelayedBusOptions): RelayedBus {
  const local = inProcessBus(onListenerError);
  const { commands, subscriber, instanceId } = link;
  const eventsChannel = link.channel("bus:events");
  const acksChannel = link.channel(`bus:acks:${instanceId}`);
  const waiting = new Map<string, { expected: number; got: number; done: () => void }>();
  let unsent: Wire[] = [];
  let overflowed = false;
  let seq = 0;
  let subscribedOnce = false;
  let closed = false;

  function acknowledged(id: string) {
    const wait = waiting.get(id);
    if (wait && ++wait.got >= wait.expected) wait.done();
  }

  function onMessage(channel: string, text: string) {
    if (channel === acksChannel) return acknowledged(text);
    if (channel !== eventsChannel) return;
    let wire: Wire;
    try {
      wire = JSON.parse(text) as Wire;
    } catch {
      return;
    }
    if (wire.from === instanceId) return acknowledged(wire.id); // ran before the relay
    if ("resync" in wire) onResync();
    else void local.publish(wire.event);
    commands.publish(link.channel(`bus:acks:${wire.from}`), wire.id).catch(() => undefined);
  }

  /** Publishes; resolves with how many subscribers got it. */
  const send = (wire: Wire): Promise<number> => commands.publish(eventsChannel, JSON.stringify(wire));

  function keep(wire: Wire) {
    if (overflowed) return;
    if (unsent.length >= MAX_UNSENT) {
      overflowed = true;
      unsent = [];
    } else unsent.push(wire);
  }

  async function sendUnsent() {
    if (!overflowed && unsent.length === 0) return;
    const batch: Wire[] = overflowed ? [{ from: instanceId, id: `${instanceId}:${++seq}`, resync: true }] : unsent;
    unsent = [];
    overflowed = false;
    let sent = 0;
    try {
      for (const wire of batch) {
        await send(wire);
        sent++;
      }
      logger?.info({ events: batch.length }, "change events kept while Redis was away: relayed");
    } catch {
      for (const wire of batch.slice(sent)) keep(wire);
    }
  }

  subscriber.on("message", onMessage);
  // The subscription came back after a break: events may have been missed meanwhile.
  subscriber.on("ready", () => {
    if (subscribedOnce) {
      logger?.warn({}, "change events may have been missed while Redis was away: dropping kept answers");
      onResync();
    }
  });
  commands.on("ready", () => void sendUnsent());

  return {
    subscribe: local.subscribe,
    async publish(event) {
      await local.publish(event);
      if (closed) return;
      const wire: Wire = { from: instanceId, id: `${instanceId}:${++seq}`, event };
      // Waiting before sending: an acknowledgement (this instance's own first) may arrive before
      // PUBLISH's answer says how many to expect.
      let timer: NodeJS.Timeout | undefined;
      let release = () => {};
      const entry = { expected: Number.POSITIVE_INFINITY, got: 0, done: () => release() };
      const settled = new Promise<void>((resolve) => {
        release = () => {
          clearTimeout(timer);
          waiting.delete(wire.id);
          resolve();
        };
      });
      waiting.set(wire.id, entry);
      try {
        entry.expected = await send(wire);
      } catch {
        // The write is committed: the others learn it when Redis returns (kept, or by resync).
        entry.done();
        keep(wire);
        return;
      }
      if (entry.got >= entry.expected) return entry.done();
      timer = setTimeout(() => {
        logger?.warn({ event: event.type, expected: entry.expected, got: entry.got }, "not every instance acknowledged a change event in time");
        entry.done();
      }, ackTimeoutMs);
      await settled;
    },
    async start() {
      // Queued until the subscriber connects: the app does not wait for a Redis that is away.
      const subscribed = subscriber.subscribe(eventsChannel, acksChannel).then(
        () => true,
        (err: unknown) => logger?.warn({ err }, "change events: subscription failed") ?? false,
      );
      subscribedOnce = true;
      if (subscriber.status !== "ready") {
        logger?.warn({}, "change events: Redis is away, subscribing when it returns");
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([subscribed, new Promise<false>((r) => (timer = setTimeout(() => r(false), ackTimeoutMs * 5)))]);
      clearTimeout(timer);
    },
    close() {
      closed = true;
      subscriber.off("message", onMessage);
      for (const wait of waiting.values()) wait.done();
    },
  };
}
