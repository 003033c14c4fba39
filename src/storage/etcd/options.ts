/**
 * The etcd backend's options (the `--store-*` options of server-options.md) and their translation
 * into the etcd3 client's options.
 */
import { readFile } from 'node:fs/promises';
import type { IOptions } from 'etcd3';
import { invalid } from '../errors.js';
import { passThroughPolicy } from './pass-through-policy.js';

/** PEM files from `--store-cafile`, `--store-certfile` and `--store-keyfile`. */
export interface EtcdTlsFiles {
  /** Certificate authorities that sign the servers' certificates; omitted: the system's. */
  readonly caFile?: string;
  /** Client certificate, for servers that demand one (with `keyFile`). */
  readonly certFile?: string;
  readonly keyFile?: string;
}

export interface EtcdStorageOptions {
  /** `--store-servers`: `scheme://ip:port` URLs (http or https) of the cluster's members. */
  readonly servers: readonly string[];
  readonly tls?: EtcdTlsFiles;
  /** `--store-healthcheck-timeout`, in milliseconds (default 2 s). */
  readonly healthcheckTimeoutMs?: number;
  /** Deadline of every unary call, in milliseconds (default 15 s, upstream's request timeout). */
  readonly requestTimeoutMs?: number;
  /**
   * How long a watch keeps trying to reconnect before it gives up with 'unavailable', in
   * milliseconds (default 60 s). Within that time an etcd restart is invisible to the consumer.
   */
  readonly watchReconnectTimeoutMs?: number;
}

/** The options with every default filled in. */
export interface ResolvedEtcdOptions {
  readonly servers: readonly string[];
  readonly healthcheckTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly watchReconnectTimeoutMs: number;
  /** The servers as one string, for error messages. */
  readonly serversText: string;
}

export const DEFAULT_HEALTHCHECK_TIMEOUT_MS = 2_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
export const DEFAULT_WATCH_RECONNECT_TIMEOUT_MS = 60_000;

/**
 * Checks the options and fills in defaults.
 *
 * @throws StorageError('invalid') for an empty server list, a URL that is not http(s)://host:port,
 *   a mix of http and https, or a non-positive timeout.
 */
export function resolveEtcdOptions(options: EtcdStorageOptions): ResolvedEtcdOptions {
  if (options.servers.length === 0) throw invalid('--store-servers is empty');
  const servers = options.servers.map(normalizeServer);
  // etcd3 opens one kind of channel credentials for every member.
  if (new Set(servers.map((s) => s.split(':')[0])).size > 1) {
    throw invalid(`--store-servers mixes http and https: ${options.servers.join(',')}`);
  }
  const resolved = {
    servers,
    healthcheckTimeoutMs: options.healthcheckTimeoutMs ?? DEFAULT_HEALTHCHECK_TIMEOUT_MS,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    watchReconnectTimeoutMs: options.watchReconnectTimeoutMs ?? DEFAULT_WATCH_RECONNECT_TIMEOUT_MS,
    serversText: options.servers.join(','),
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value === 'number' && !(value > 0)) throw invalid(`${name} must be positive, got ${value}`);
  }
  return resolved;
}

/**
 * Builds the etcd3 client options: reads the TLS files, sets call deadlines and keepalive, and
 * replaces etcd3's blind global retry (which would re-send a transaction whose outcome is unknown
 * and turn our own success into a spurious 'key-exists' or 'conflict').
 *
 * @throws StorageError('invalid') when a TLS file cannot be read, or only one of cert/key is given.
 */
export async function toEtcd3Options(options: EtcdStorageOptions, resolved: ResolvedEtcdOptions): Promise<IOptions> {
  const hosts = [...resolved.servers];
  return {
    hosts,
    credentials: await loadCredentials(options.tls),
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + resolved.requestTimeoutMs }),
    grpcOptions: {
      // Watch responses carry whole objects with their previous values; gRPC's 4 MiB default
      // would kill the stream on a large catch-up batch (upstream lifts the limit the same way).
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
      // Notice a silently dead member; etcd's default ping policy allows one ping every 5 s.
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.keepalive_permit_without_calls': 1,
      // gRPC's reconnect backoff grows to 2 minutes by default; after an etcd restart the
      // backend should be back within seconds.
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 2_000,
    },
    faultHandling: {
      global: passThroughPolicy(),
      // With one member a circuit breaker only delays recovery after a restart; with several it
      // steers calls away from a dead one, so etcd3's default breaker stays.
      ...(hosts.length === 1 ? { host: () => passThroughPolicy() } : {}),
    },
  };
}

async function loadCredentials(tls: EtcdTlsFiles | undefined): Promise<IOptions['credentials']> {
  if (tls === undefined || (tls.caFile === undefined && tls.certFile === undefined && tls.keyFile === undefined)) {
    return undefined;
  }
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) {
    throw invalid('--store-certfile and --store-keyfile must be given together');
  }
  const [rootCertificate, certChain, privateKey] = await Promise.all([
    readPem(tls.caFile, '--store-cafile'),
    readPem(tls.certFile, '--store-certfile'),
    readPem(tls.keyFile, '--store-keyfile'),
  ]);
  return {
    // grpc-js takes null as "the system's certificate authorities"; etcd3's type insists on a Buffer.
    rootCertificate: rootCertificate ?? (null as unknown as Buffer),
    ...(certChain === undefined ? {} : { certChain }),
    ...(privateKey === undefined ? {} : { privateKey }),
  };
}

async function readPem(path: string | undefined, option: string): Promise<Buffer | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path);
  } catch (err) {
    throw invalid(`cannot read ${option} ${path}: ${(err as Error).message}`, err);
  }
}

/** `scheme://host:port` with nothing after it: etcd3 turns what follows the scheme into a gRPC target. */
function normalizeServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw invalid(`--store-servers entry is not a URL: ${server}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || (url.pathname !== '/' && url.pathname !== '')) {
    throw invalid(`--store-servers entry must be http(s)://host:port, got ${server}`);
  }
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return `${url.protocol}//${url.hostname}:${port}`;
}
