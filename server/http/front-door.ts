import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";

/**
 * Answers a request before Fastify sees it, or says no (false) and Fastify answers it as ever.
 * A lane must answer synchronously and completely, or not at all.
 */
export interface Lane {
  serve(req: IncomingMessage, res: ServerResponse): boolean;
}

/** The slot a lane is put into once what it serves exists (the kept pages: server/web/kept-lane.ts, ADR 0069). */
export interface FrontDoor {
  lane: Lane | undefined;
  /** Fastify's `serverFactory`: the HTTP server Fastify would make, with the lane in front of its handler. */
  serverFactory(handler: (req: IncomingMessage, res: ServerResponse) => void, options: FrontDoorServerOptions): Server;
}

/** The part of Fastify's options its own HTTP/1 server is made from (fastify/lib/server.js). */
export interface FrontDoorServerOptions {
  http?: ServerOptions | null;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

export function frontDoor(): FrontDoor {
  const door: FrontDoor = {
    lane: undefined,
    serverFactory(handler, options) {
      const server = createServer(options.http ?? {}, (req, res) => {
        if (!door.lane?.serve(req, res)) handler(req, res);
      });
      // What Fastify sets on the server it makes itself.
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
  };
  return door;
}
