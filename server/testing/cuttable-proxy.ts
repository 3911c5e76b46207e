import net from "node:net";

export type ProxyMode = "open" | "refuse" | "blackhole";

export interface CuttableProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /**
   * Cuts the line: every open connection is destroyed, and new ones are either closed at once
   * ("refuse": PostgreSQL stopped) or held without an answer ("blackhole": a network that drops
   * packets). `restore()` lets new connections through again.
   */
  cut(mode?: Exclude<ProxyMode, "open">): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy between the app and a real server (PostgreSQL on 127.0.0.1:5432 in the outage
 * tests): the machine's server keeps running for everyone else while this app loses it.
 */
export async function cuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  let mode: ProxyMode = "open";
  const sockets = new Set<net.Socket>();
  /** Connections the black hole holds without an answer. */
  const held = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A destroyed peer's socket reports ECONNRESET: expected here, never a crash.
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === "refuse") return void client.destroy();
    if (mode === "blackhole") {
      held.add(client);
      client.on("close", () => held.delete(client));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut(next = "refuse") {
      mode = next;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      // Sockets held by the black hole are let go: their clients gave up on them already.
      for (const socket of held) socket.destroy();
      mode = "open";
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
