/**
 * A small HTTPS client for server tests: HTTP/2 (as Go clients speak) or HTTP/1.1, trusting the
 * server's CA, optionally with a client certificate or a bearer token.
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest } from 'node:https';

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface TestRequest {
  readonly url: string;
  readonly method?: string;
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly http1?: boolean;
}

export function request(r: TestRequest): Promise<TestResponse> {
  return r.http1 ? http1(r) : http2(r);
}

function http2(r: TestRequest): Promise<TestResponse> {
  const url = new URL(r.url);
  const session = connect(url.origin, { ca: r.ca, cert: r.cert, key: r.key });
  const failed = new Promise<never>((_, reject) => session.on('error', reject));
  const request = requestOnSession(session, { method: r.method, path: url.pathname + url.search, headers: r.headers, body: r.body });
  return Promise.race([request, failed]).finally(() => session.close());
}

/** One request on an open HTTP/2 session (which stays open), for tests of a connection's streams. */
export function requestOnSession(
  session: ClientHttp2Session,
  r: { readonly method?: string | undefined; readonly path: string; readonly headers?: Record<string, string> | undefined; readonly body?: string | undefined },
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: r.method ?? 'GET',
      [constants.HTTP2_HEADER_PATH]: r.path,
      ...r.headers,
    });
    const chunks: Buffer[] = [];
    let headers: Record<string, string | string[] | undefined> = {};
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body: Buffer.concat(chunks).toString('utf8') }));
    stream.end(r.body);
  });
}

function http1(r: TestRequest): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(r.url, { method: r.method ?? 'GET', ca: r.ca, cert: r.cert, key: r.key, headers: r.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}
