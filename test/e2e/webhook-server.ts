/**
 * A webhook for the tests: a real HTTPS server on 127.0.0.1 with a CA of its own, and the
 * kubeconfig that reaches it with a bearer token, as Capstan's audit, authorization and token
 * webhooks are configured. `reply` answers each POST from its body (and may take its time).
 * {@link startReviewWebhook} is such a server for a review webhook (authorization, token).
 */
import { createServer, type Server } from 'node:https';
import { CertificateAuthority } from '../../src/server/tls/certificate-authority.js';

export interface WebhookPost {
  /** The Authorization header the webhook was sent. */
  readonly authorization: string | undefined;
  /** The body, as sent. */
  readonly text: string;
}

export interface WebhookReply {
  readonly code: number;
  readonly body?: string;
}

export interface WebhookServer {
  /** A kubeconfig whose cluster is this server (`https://127.0.0.1:<port><path>`) and whose user has `token`. */
  readonly kubeconfig: string;
  close(): Promise<void>;
}

export async function startWebhookServer(
  name: string,
  { path, token }: { path: string; token: string },
  reply: (post: WebhookPost) => Promise<WebhookReply> | WebhookReply,
): Promise<WebhookServer> {
  const ca = await CertificateAuthority.create(`${name}-ca`, 1);
  const serving = await ca.issue({ commonName: name, subjectAltNames: ['127.0.0.1'], usage: 'server', validDays: 1 });
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const { code, body } = await reply({ authorization: req.headers.authorization, text: Buffer.concat(chunks).toString() });
      res.writeHead(code, { 'Content-Type': 'application/json' }).end(body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const kubeconfig = [
    'apiVersion: v1', 'kind: Config',
    'clusters:', `- name: ${name}`, '  cluster:', `    server: https://127.0.0.1:${port}${path}`, `    certificate-authority-data: ${Buffer.from(ca.pem.certPem).toString('base64')}`,
    'users:', '- name: capstan', '  user:', `    token: ${token}`,
    'contexts:', `- name: ${name}`, '  context:', `    cluster: ${name}`, '    user: capstan',
    `current-context: ${name}`, '',
  ].join('\n');
  return { kubeconfig, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A review the webhook was sent: its Authorization header, its body parsed, and as sent. */
export interface ReceivedReview extends WebhookPost {
  readonly body: Record<string, any>;
}

/** What a review webhook answers: an HTTP code, and the review's status (none: an empty body). */
export type ReviewAnswer = (review: Record<string, any>) => { code: number; status?: object };

/**
 * A review webhook (SubjectAccessReview, TokenReview): keeps every review it is sent and answers
 * each with a review of `kind` in the same apiVersion, carrying the status `answer` gives.
 */
export async function startReviewWebhook(
  name: string,
  where: { path: string; token: string },
  kind: string,
  answer: ReviewAnswer,
): Promise<WebhookServer & { readonly received: ReceivedReview[] }> {
  const received: ReceivedReview[] = [];
  const server = await startWebhookServer(name, where, ({ authorization, text }) => {
    const body = JSON.parse(text) as Record<string, any>;
    received.push({ authorization, body, text });
    const { code, status } = answer(body);
    return { code, ...(status ? { body: JSON.stringify({ apiVersion: body.apiVersion, kind, status }) } : {}) };
  });
  return { received, kubeconfig: server.kubeconfig, close: server.close };
}
