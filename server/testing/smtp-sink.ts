import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** RCPT TO addresses as the server saw them. */
  to: string[];
  /** The message exactly as it arrived (headers and body). */
  raw: string;
  /** The Subject header as it arrived (encoded-words and all). */
  rawSubject: string;
  /** The Subject decoded (RFC 2047). */
  subject: string;
  /** The From header decoded. */
  from: string;
  /** The text/plain part decoded (transfer encoding and charset). */
  text: string;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free local port that keeps every message
 * it receives, for tests that send through SMTP_URL. No TLS, no auth: a local relay.
 */
export async function startSmtpSink(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1");
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, ...parseMessage(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

/** Splits a message (or a MIME part) into unfolded headers (lower-case names) and its body. */
function splitPart(raw: string): { headers: Map<string, string>; rawHeaders: Map<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? "" : raw.slice(end + 4);
  const headers = new Map<string, string>();
  const rawHeaders = new Map<string, string>();
  for (const line of head.replace(/\r\n([ \t])/g, "\u0000$1").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    rawHeaders.set(name, value.replaceAll("\u0000", "\r\n"));
    headers.set(name, value.replace(/\u0000[ \t]+/g, " "));
  }
  return { headers, rawHeaders, body };
}

/** RFC 2047: adjacent encoded-words join without the space between them, bytes before characters. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(\?=)\s+(?==\?)/g, "$1");
  const out: string[] = [];
  let last = 0;
  let pending: Buffer[] = [];
  const flush = () => {
    if (pending.length) out.push(Buffer.concat(pending).toString("utf8"));
    pending = [];
  };
  for (const m of joined.matchAll(word)) {
    if (m.index > last) {
      flush();
      out.push(joined.slice(last, m.index));
    }
    const [, charset, kind, text] = m;
    if (!/^utf-?8$/i.test(charset)) throw new Error(`unexpected charset ${charset}`);
    pending.push(
      kind.toUpperCase() === "B" ? Buffer.from(text, "base64") : qpBytes(text.replaceAll("_", " ")),
    );
    last = m.index + m[0].length;
  }
  flush();
  out.push(joined.slice(last));
  return out.join("");
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  const src = text.replace(/=\r\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(src.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, transferEncoding: string | undefined): string {
  const enc = (transferEncoding ?? "7bit").toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") return qpBytes(body).toString("utf8");
  return Buffer.from(body, "latin1").toString("utf8");
}

/** The subject and the text/plain part of a message (single part or multipart/*). */
function parseMessage(raw: string): { rawSubject: string; subject: string; from: string; text: string } {
  const top = splitPart(raw);
  const rawSubject = top.rawHeaders.get("subject") ?? "";
  const subject = decodeEncodedWords(top.headers.get("subject") ?? "");
  const textOf = (part: ReturnType<typeof splitPart>): string | undefined => {
    const type = part.headers.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const chunk of part.body.split(`--${boundary}`).slice(1)) {
        if (chunk.startsWith("--")) break;
        const found = textOf(splitPart(chunk.replace(/^\r\n/, "")));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    return /^text\/plain/i.test(type) ? decodeBody(part.body, part.headers.get("content-transfer-encoding")) : undefined;
  };
  return { rawSubject, subject, from: decodeEncodedWords(top.headers.get("from") ?? ""), text: textOf(top) ?? "" };
}
