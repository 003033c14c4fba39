/**
 * Runs a real etcd for tests and benchmarks: one member on 127.0.0.1 with its own free client and
 * peer ports and its own temporary data directory, so it never touches (or depends on) a system
 * etcd on the default port 2379.
 *
 * The binary is `$ETCD_BIN`, else `etcd` on the PATH, else /usr/bin/etcd (Debian's etcd-server).
 * When none exists, {@link etcdUnavailableReason} says why, and callers skip their tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How long a start may take before it counts as failed (etcd usually needs well under a second). */
const START_TIMEOUT_MS = 20_000;
/** How long a graceful stop may take before the process is killed. */
const STOP_TIMEOUT_MS = 10_000;

/** Where the etcd binary is, or undefined when there is none. */
export function findEtcdBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    env['ETCD_BIN'],
    ...(env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '').map((dir) => join(dir, 'etcd')),
    '/usr/bin/etcd',
  ];
  return candidates.find((path) => path !== undefined && isExecutable(path));
}

/** Why etcd tests cannot run here, or undefined when they can. */
export function etcdUnavailableReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findEtcdBinary(env) === undefined
    ? 'no etcd binary (set ETCD_BIN, put etcd on the PATH, or apt-get install etcd-server)'
    : undefined;
}

/**
 * PEM files for a TLS client endpoint that demands client certificates signed by `caFile`; the
 * client pair is what the harness's own health probe presents.
 */
export interface EtcdTlsFiles {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
}

export interface EtcdProcessOptions {
  /** The etcd binary; default {@link findEtcdBinary}. */
  readonly binary?: string;
  /** Serve clients over https with these files. */
  readonly tls?: EtcdTlsFiles;
}

/**
 * A running single-member etcd. `stop`/`kill` followed by `start` keeps the ports and the data
 * directory, which is what a restart test needs; `dispose` stops it and deletes the data.
 */
export class EtcdProcess {
  private child: ChildProcess | undefined;
  private stderrTail = '';
  private readonly killOnExit = (): void => {
    this.child?.kill('SIGKILL');
  };

  private constructor(
    private readonly binary: string,
    readonly dataDir: string,
    readonly clientPort: number,
    readonly peerPort: number,
    private readonly options: EtcdProcessOptions,
  ) {}

  /** Starts a fresh etcd and waits until it answers its health endpoint. */
  static async launch(options: EtcdProcessOptions = {}): Promise<EtcdProcess> {
    const binary = options.binary ?? findEtcdBinary();
    if (binary === undefined) throw new Error(etcdUnavailableReason());
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-etcd-'));
    const [clientPort, peerPort] = await freePorts(2);
    const etcd = new EtcdProcess(binary, dataDir, clientPort!, peerPort!, options);
    try {
      await etcd.start();
    } catch (err) {
      await rm(dataDir, { recursive: true, force: true });
      throw err;
    }
    return etcd;
  }

  /** The client URL, as `--store-servers` takes it. */
  get endpoint(): string {
    return `${this.options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${this.clientPort}`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Starts the process on the same ports and data directory; resolves once it is healthy. */
  async start(): Promise<void> {
    if (this.child !== undefined) return;
    const peer = `http://127.0.0.1:${this.peerPort}`;
    const args = [
      '--name', 'capstan-test',
      '--data-dir', this.dataDir,
      '--listen-client-urls', this.endpoint,
      '--advertise-client-urls', this.endpoint,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `capstan-test=${peer}`,
      '--initial-cluster-state', 'new',
      '--logger', 'zap',
      '--log-level', 'error',
      ...tlsFlags(this.options.tls),
    ];
    const child = spawn(this.binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    this.stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
      process.off('exit', this.killOnExit);
    });
    // A test runner that dies must not leave an etcd behind.
    process.on('exit', this.killOnExit);
    try {
      await this.waitHealthy(child);
    } catch (err) {
      await this.kill();
      throw err;
    }
  }

  /** Stops gracefully (SIGTERM), killing after a timeout. */
  stop(): Promise<void> {
    return this.terminate('SIGTERM');
  }

  /** Kills at once (SIGKILL), like a crash. */
  kill(): Promise<void> {
    return this.terminate('SIGKILL');
  }

  /** Stops and starts again with the same ports and data. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Stops the process and deletes its data directory. */
  async dispose(): Promise<void> {
    await this.kill();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  private async terminate(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private async waitHealthy(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let lastProblem = 'no answer yet';
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`etcd exited during start (${child.exitCode ?? child.signalCode}): ${this.stderrTail.trim()}`);
      }
      lastProblem = await this.probeHealth();
      if (lastProblem === '') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS} ms (${lastProblem}): ${this.stderrTail.trim()}`);
  }

  /** '' when healthy, otherwise what was wrong. */
  private async probeHealth(): Promise<string> {
    try {
      const body = await getJson(`${this.endpoint}/health`, this.options.tls);
      return (body as { health?: unknown }).health === 'true' ? '' : `health: ${JSON.stringify(body)}`;
    } catch (err) {
      return String(err);
    }
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ports the kernel reports free right now. Another process could take one before etcd binds it;
 * that shows up as a failed start with etcd's own message, not as a hang.
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => {
              const address = server.address();
              if (address === null || typeof address === 'string') reject(new Error('no port'));
              else resolve(address.port);
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

function tlsFlags(tls: EtcdTlsFiles | undefined): string[] {
  if (tls === undefined) return [];
  return ['--cert-file', tls.certFile, '--key-file', tls.keyFile, '--trusted-ca-file', tls.caFile, '--client-cert-auth'];
}

/** GET with an optional client certificate (fetch cannot present one). */
async function getJson(url: string, tls: EtcdTlsFiles | undefined): Promise<unknown> {
  const tlsOptions =
    tls === undefined
      ? {}
      : { ca: await readFile(tls.caFile), cert: await readFile(tls.clientCertFile), key: await readFile(tls.clientKeyFile) };
  const get = url.startsWith('https:') ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    // No SNI: the host is an IP address, which TLS server names must not be (RFC 6066).
    const request = get(url, { ...tlsOptions, servername: '', timeout: 1000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(err);
        }
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('health probe timed out')));
    request.on('error', reject);
  });
}
