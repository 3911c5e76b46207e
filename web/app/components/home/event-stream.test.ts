import { describe, expect, it } from "vitest";
import { eventStreamParser } from "./event-stream";

function parse(chunks: string[]) {
  const seen: [string, string][] = [];
  const push = eventStreamParser((event, data) => seen.push([event, data]));
  for (const chunk of chunks) push(chunk);
  return seen;
}

describe("the event stream read from a fetched body", () => {
  it("hands over each frame once its blank line has arrived, wherever the chunks cut it", () => {
    const text = 'retry: 3000\n\nevent: source\ndata: {"source":"local"}\n\nevent: done\ndata: {"total":1}\n\n';
    const whole = parse([text]);
    expect(whole).toEqual([
      ["source", '{"source":"local"}'],
      ["done", '{"total":1}'],
    ]);
    // Every cut of the text into two chunks, and one character at a time.
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    expect(parse([...text])).toEqual(whole);
    // A frame without its blank line yet is not handed over.
    expect(parse(['event: source\ndata: {"a":1}\n'])).toEqual([]);
  });

  it("reads CRLF and CR line ends, several data lines, comments and fields without a space", () => {
    expect(parse(["event:source\r\ndata: a\r\ndata:b\r\n\r\n"])).toEqual([["source", "a\nb"]]);
    expect(parse(["event: done\rdata: x\r", "\r"])).toEqual([["done", "x"]]);
    // A CRLF cut between its two characters is one line end, not two.
    expect(parse(["data: 1\r", "\ndata: 2\r", "\n\r\n"])).toEqual([["message", "1\n2"]]);
    expect(parse([": keep-alive\n\ndata: x\n\n"])).toEqual([["message", "x"]]);
    // A frame with no data is no event; the next frame starts with no name.
    expect(parse(["event: source\n\ndata: y\n\n"])).toEqual([["message", "y"]]);
  });
});
