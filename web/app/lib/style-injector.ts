import { Transform, type TransformCallback } from "node:stream";

/**
 * Inserts the extracted antd styles right before `</head>` of the streamed HTML, so the
 * first paint is already styled. Bytes before the marker are held back until it is seen.
 */
export class HeadInjector extends Transform {
  private pending = "";
  private done = false;

  constructor(private readonly getHtml: () => string) {
    super();
  }

  _transform(chunk: Buffer | string, _enc: BufferEncoding, callback: TransformCallback) {
    if (this.done) return callback(null, chunk);
    this.pending += chunk.toString();
    const at = this.pending.indexOf("</head>");
    if (at === -1) return callback();
    this.done = true;
    const out = this.pending.slice(0, at) + this.getHtml() + this.pending.slice(at);
    this.pending = "";
    callback(null, out);
  }

  _flush(callback: TransformCallback) {
    callback(null, this.pending || undefined);
  }
}
