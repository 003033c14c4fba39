/**
 * Where the load goes: an HTTPS endpoint on this machine and the credentials to use, read from a
 * kubeconfig (Capstan's admin.kubeconfig or any other server's), as plain data that can cross to the
 * load-generator process.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** One HTTPS endpoint and how to authenticate to it. PEM strings, so it survives IPC. */
export interface Target {
  /** A label for reports. */
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** Trusted CA (PEM); absent: the system's CAs. */
  readonly ca?: string;
  /** Client certificate and key (PEM). */
  readonly cert?: string;
  readonly key?: string;
  /** Bearer token. */
  readonly token?: string;
  /** insecure-skip-tls-verify in the kubeconfig. */
  readonly insecure?: boolean;
}

/** Only this machine: the benchmark must never load someone else's server. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

type Named<T> = { name: string } & T;
interface KubeconfigDocument {
  'current-context'?: string;
  contexts?: Array<Named<{ context?: { cluster?: string; user?: string } }>>;
  clusters?: Array<Named<{ cluster?: Record<string, string | boolean | undefined> }>>;
  users?: Array<Named<{ user?: Record<string, string | undefined> }>>;
}

/**
 * The current context's cluster and user of the kubeconfig at `path`. Throws when the file lacks
 * them, when the server is not on a loopback address, or when it is not HTTPS.
 */
export function targetFromKubeconfig(path: string, name = path): Target {
  const doc = parseYaml(readFileSync(path, 'utf8')) as KubeconfigDocument;
  const contextName = doc['current-context'];
  const context = doc.contexts?.find((c) => c.name === contextName)?.context;
  if (!context) throw new Error(`${path}: no current context`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster || typeof cluster['server'] !== 'string') throw new Error(`${path}: context ${contextName} has no cluster server`);
  const user = doc.users?.find((u) => u.name === context.user)?.user ?? {};
  const url = new URL(cluster['server']);
  if (url.protocol !== 'https:') throw new Error(`${path}: server ${url.href} is not HTTPS`);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`${path}: server ${url.hostname} is not on this machine (the benchmark only loads 127.0.0.1)`);
  const base = dirname(resolve(path));
  const pem = (data: unknown, file: unknown): string | undefined => {
    if (typeof data === 'string') return Buffer.from(data, 'base64').toString('utf8');
    if (typeof file === 'string') return readFileSync(resolve(base, file), 'utf8');
    return undefined;
  };
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = pem(user['client-certificate-data'], user['client-certificate']);
  const key = pem(user['client-key-data'], user['client-key']);
  const token = user['token'] ?? (user['tokenFile'] ? readFileSync(resolve(base, user['tokenFile']), 'utf8').trim() : undefined);
  return {
    name,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(token ? { token } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecure: true } : {}),
  };
}
