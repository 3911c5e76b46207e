/**
 * Server-Sent Events read from a fetched body (the WHATWG "event stream" format): text arrives in
 * chunks that may cut a line or a frame anywhere; each frame that ends with a blank line is
 * handed over as its event name (`message` when it has none) and its data lines joined by "\n".
 * Comments (`:`), `id` and `retry` are ignored: a search is asked once and never resumed.
 */
export function eventStreamParser(onEvent: (event: string, data: string) => void): (text: string) => void {
  let pending = "";
  let event = "";
  let data: string[] = [];
  // A "\r" at a chunk's end may be the first half of "\r\n": held until the next chunk says.
  let heldCarriageReturn = false;

  function line(text: string) {
    if (text === "") {
      if (data.length > 0) onEvent(event || "message", data.join("\n"));
      event = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }

  return (text) => {
    if (heldCarriageReturn && text.startsWith("\n")) text = text.slice(1);
    heldCarriageReturn = false;
    pending += text;
    let start = 0;
    for (let i = 0; i < pending.length; i++) {
      const c = pending[i];
      if (c !== "\n" && c !== "\r") continue;
      if (c === "\r" && i === pending.length - 1) heldCarriageReturn = true;
      line(pending.slice(start, i));
      if (c === "\r" && pending[i + 1] === "\n") i += 1;
      start = i + 1;
    }
    pending = pending.slice(start);
  };
}
