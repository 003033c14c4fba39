/** Starts and stops the bare-server ceiling process (see bare-server.ts). */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BarePorts, BareServerConfig } from './bare-server.js';
import type { Target } from './target.js';
import { makeCeilingCertificates } from './test-certificates.js';

const ENTRY = fileURLToPath(new URL('./bare-server.js', import.meta.url));

export interface BareServer {
  /** Where to send HTTP/1.1 load, with the client certificate it trusts. */
  readonly target: Target;
  /** The same over HTTP/2. */
  readonly h2Target: Target;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Forks bare servers answering every request with `body`; resolves once they listen. */
export async function startBareServer(body: string): Promise<BareServer> {
  const certs = await makeCeilingCertificates();
  const child = fork(ENTRY, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const config: BareServerConfig = { certPem: certs.server.certPem, keyPem: certs.server.keyPem, caPem: certs.caPem, body };
  const ports = await new Promise<BarePorts>((resolve, reject) => {
    child.once('message', (m: BarePorts) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare server exited (${code}) before listening`)));
    child.send(config);
  });
  const target = { name: 'bare node:https', host: '127.0.0.1', port: ports.http1, ca: certs.caPem, cert: certs.client.certPem, key: certs.client.keyPem };
  return {
    target,
    h2Target: { ...target, name: 'bare node:http2', port: ports.h2 },
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
