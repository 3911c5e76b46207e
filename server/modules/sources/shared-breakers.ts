import type { RedisLink } from "../../lib/redis.js";
import type { BreakerChange, HealthBoard } from "./health.js";

interface Wire {
  from: string;
  code: string;
  change: BreakerChange;
}

/**
 * The sources' circuit breakers shared by every instance (ADR 0039): when one instance's breaker
 * of a site opens (the site is dead) or closes (its probe came back), it says so on a Redis
 * channel and the others follow, so a dead site costs its failed calls once, not once per
 * instance, and one probe per cool-down reopens it everywhere. The counters and latencies stay
 * per instance (the health page shows the instance that answers). Best effort: while Redis is
 * away each instance's breaker works alone, as with one instance.
 */
export function sharedBreakers(link: Pick<RedisLink, "commands" | "subscriber" | "channel" | "instanceId">) {
  const channel = link.channel("health:breakers");
  let board: Pick<HealthBoard, "learn"> | undefined;
  const onMessage = (from: string, text: string) => {
    if (from !== channel || !board) return;
    try {
      const wire = JSON.parse(text) as Wire;
      if (wire.from !== link.instanceId) board.learn(wire.code, wire.change);
    } catch {
      // Not ours: ignored.
    }
  };
  return {
    publish(code: string, change: BreakerChange): void {
      const wire: Wire = { from: link.instanceId, code, change };
      link.commands.publish(channel, JSON.stringify(wire)).catch(() => undefined);
    },
    /** Applies the other instances' changes to `target` from now on. */
    attach(target: Pick<HealthBoard, "learn">): void {
      board = target;
      link.subscriber.on("message", onMessage);
      // Queued until the subscriber connects; resubscribed after a reconnect.
      link.subscriber.subscribe(channel).catch(() => undefined);
    },
    close(): void {
      link.subscriber.off("message", onMessage);
    },
  };
}
