/**
 * How large a request body each route reads (ADR 0043). Past its limit a body is refused with
 * 413 上传的内容过大 before it is read (a larger Content-Length) or as soon as it passes the limit.
 * Multipart and chunked uploads are not read by these parsers: they keep their own documented
 * limits (avatar 5 MB, cover 10 MB, block image 5 MB, media 1 GB in 8 MB chunks).
 */
export const BODY_LIMITS = {
  /**
   * Every JSON route that declares nothing else: the site's forms and lists are a few KB at most
   * (site settings ~7 KB in CJK, a 200-item queue ~3 KB, 100 play positions ~8 KB); 64 KB leaves
   * room without letting a client make the server parse megabytes it will refuse anyway.
   */
  default: 64 * 1024,
  /** A login, register or password body: a few short fields. */
  login: 16 * 1024,
  /** A generic source's configuration: many selectors and URL templates. */
  sourceConfig: 256 * 1024,
  /**
   * A suite form: up to 2,000 file-list entries of up to 200 characters (3 bytes each in UTF-8
   * CJK) is ~1.3 MB of JSON; 2 MB holds the largest list the contract accepts.
   */
  suiteForm: 2 * 1024 * 1024,
} as const;
