/**
 * The status line and headers of an HTTP/1.1 response, read from a socket's reads by the lean
 * clients (chunked-body.ts for watches, http1-connection.ts for the closed loop): gathered until
 * the blank line, then only what they act on (status, framing, Connection: close) taken out.
 */

const HEAD_END = Buffer.from('\r\n\r\n');
/** More than this without the end of the headers is not HTTP. */
const MAX_HEAD = 64 * 1024;

export interface ResponseHead {
  readonly status: number;
  /** Transfer-Encoding: chunked. */
  readonly chunked: boolean;
  /** Content-Length, when given. */
  readonly contentLength: number | undefined;
  /** Connection: close; the connection takes no further request. */
  readonly closing: boolean;
}

/** One response's head; feed it reads until it returns the head. */
export class ResponseHeadReader {
  private gathered: Buffer = Buffer.alloc(0);

  /**
   * Takes the next read. Returns undefined while the head is incomplete; then the head and the
   * bytes of the read that follow it (the body's start). Throws when the bytes are not an HTTP/1.x
   * response head, or too long for one. `bytes` may be a socket's read buffer, which its next read
   * overwrites: a partial head is kept as a copy, and `rest` is valid until that next read.
   */
  feed(bytes: Buffer): { head: ResponseHead; rest: Buffer } | undefined {
    const all = this.gathered.length === 0 ? bytes : Buffer.concat([this.gathered, bytes]);
    const end = all.indexOf(HEAD_END);
    if (end < 0) {
      if (all.length > MAX_HEAD) throw new Error('response headers too long');
      this.gathered = Buffer.from(all);
      return undefined;
    }
    this.gathered = Buffer.alloc(0);
    return { head: parseHead(all.toString('latin1', 0, end)), rest: all.subarray(end + HEAD_END.length) };
  }
}

function parseHead(text: string): ResponseHead {
  // Stray line ends between responses (a previous chunked body's last CRLF) are not a status line.
  const match = /^(?:\r\n)*HTTP\/1\.[01] (\d{3})/.exec(text);
  if (match === null) throw new Error(`not an HTTP/1.1 response: ${JSON.stringify(text.slice(0, 40))}`);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
  return {
    status: Number(match[1]),
    chunked: /\r\ntransfer-encoding:[^\r]*\bchunked\b/i.test(text),
    contentLength: length ? Number(length[1]) : undefined,
    closing: /\r\nconnection:[^\r]*\bclose\b/i.test(text),
  };
}
