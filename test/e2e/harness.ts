/**
 * Starts the real server binary on a free port with a fresh data directory, waits until /readyz
 * passes, and gives tests its kubeconfig, an HTTPS client with the admin identity, and a pinned
 * kubectl. The binary is the bundle users run (dist/capstan/main.js, written by `npm run build`;
 * scripts/run-tests.mjs rebuilds it when dist/src is newer).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../eventually.js';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
/** The `capstan` binary. */
export const MAIN = join(ROOT, 'dist/capstan/main.js');

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The body's bytes as received (gzip, Protobuf). */
  readonly bytes: Buffer;
  json<T = any>(): T;
}

export interface RequestOptions {
  readonly method?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Sends no client certificate (an anonymous request). */
  readonly anonymous?: boolean;
}

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfig: string;
  readonly pid: number;
  /** Milliseconds from spawning the process to the first passing /readyz. */
  readonly startupMs: number;
  readonly output: () => string;
  request(path: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Runs kubectl against the server (the newest pinned client, or `client`); resolves with its exit code and output. */
  kubectl(args: readonly string[], options?: { input?: string; env?: Record<string, string>; client?: string }): { code: number; stdout: string; stderr: string };
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A pinned kubectl client: the newest installed, or client 1.`minor` when given; undefined when it
 * is not installed.
 */
export function pinnedKubectl(minor?: number): string | undefined {
  const dir = '/usr/lib/google-cloud-sdk/bin';
  if (!existsSync(dir)) return undefined;
  const versions = readdirSync(dir)
    .map((name) => /^kubectl\.1\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a);
  const chosen = minor === undefined ? versions[0] : versions.find((v) => v === minor);
  return chosen !== undefined ? join(dir, `kubectl.1.${chosen}`) : undefined;
}

export interface KubeconfigCredentials {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/** The CA and the admin client certificate of a kubeconfig, for tests that open their own connections. */
export function credentialsOf(kubeconfig: string): KubeconfigCredentials {
  const text = readFileSync(kubeconfig, 'utf8');
  const field = (name: string): Buffer => {
    const m = new RegExp(`${name}:\\s*(\\S+)`).exec(text);
    if (!m) throw new Error(`kubeconfig has no ${name}`);
    return Buffer.from(m[1]!, 'base64');
  };
  return { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data') };
}

/**
 * Creates the namespace `name` on `server`, asserting that it was created (201), and waits until
 * the server's controllers have put in what every namespace holds (its kube-root-ca.crt ConfigMap
 * and default ServiceAccount). They do it on their own time: a test that lists or watches the
 * namespace right away would otherwise see them now and then, after its own first write.
 */
export async function createNamespace(server: TestServer, name: string): Promise<void> {
  const res = await server.request('/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  assert.equal(res.status, 201, res.body);
  for (const path of ['configmaps/kube-root-ca.crt', 'serviceaccounts/default']) {
    await eventually(`${path} in the new namespace ${name}`, async () => (await server.request(`/api/v1/namespaces/${name}/${path}`)).status === 200, 10_000);
  }
}

/**
 * Starts the binary on `dataDir` (a new temporary one by default) and waits for /readyz. `launch`
 * says how: `node` runs MAIN with this test's node, `executable` runs the file itself, so that its
 * first line picks node and node's options, as `npm start` does.
 */
export async function startServer(extraArgs: readonly string[] = [], dataDir?: string, launch: 'node' | 'executable' = 'node'): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'capstan-e2e-'));
  const port = await freePort();
  const began = Date.now();
  const args = ['--data-dir', dir, '--secure-port', String(port), '--bind-address', '127.0.0.1', ...extraArgs];
  const [command, commandArgs] = launch === 'node' ? [process.execPath, [MAIN, ...args]] : [MAIN, args];
  const child: ChildProcess = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number>((r) => child.on('exit', (code) => r(code ?? -1)));
  const url = `https://127.0.0.1:${port}`;
  const kubeconfig = join(dir, 'admin.kubeconfig');
  let credentials: KubeconfigCredentials | undefined;

  const request = (path: string, options: RequestOptions = {}): Promise<HttpResponse> =>
    new Promise((resolveResponse, reject) => {
      const creds = credentials ?? credentialsOf(kubeconfig);
      const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      const req = httpsRequest(
        {
          host: '127.0.0.1', port, path, method: options.method ?? 'GET', ca: creds.ca,
          ...(options.anonymous ? {} : { cert: creds.cert, key: creds.key }),
          // An explicit length: Node's HTTP/1.1 server refuses chunked DELETE bodies, and real clients send one.
          headers: { ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...options.headers },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: text, bytes, json: () => JSON.parse(text) });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });

  const deadline = Date.now() + 30_000;
  let startupMs = -1;
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 20))]);
    if (code !== undefined) throw new Error(`server exited with ${code} before it was ready:\n${output}`);
    if (!existsSync(kubeconfig)) continue;
    try {
      credentials ??= credentialsOf(kubeconfig);
      const res = await request('/readyz');
      if (res.status === 200) {
        startupMs = Date.now() - began;
        break;
      }
    } catch {
      // Not listening yet.
    }
  }
  if (startupMs < 0) {
    child.kill('SIGKILL');
    throw new Error(`server not ready within 30 s:\n${output}`);
  }
  const kubectlPath = pinnedKubectl();
  return {
    url, port, dataDir: dir, kubeconfig, pid: child.pid!, startupMs,
    output: () => output,
    request,
    kubectl(args, options = {}) {
      const client = options.client ?? kubectlPath;
      if (!client) throw new Error('kubectl is not installed');
      const result = spawnSync(client, ['--kubeconfig', kubeconfig, ...args], {
        input: options.input ?? '', encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...options.env },
      });
      return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
