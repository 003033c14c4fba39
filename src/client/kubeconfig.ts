/**
 * Reading a kubeconfig, for the servers Capstan calls (the audit and authorization webhooks): the
 * current context's cluster (server URL, CA, TLS name, whether to verify) and user (client
 * certificate, bearer token, basic credentials). Paths in the file are relative to its directory,
 * as clientcmd reads them. Only what a webhook connection needs; exec and auth-provider plugins
 * are refused.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { loadYamlLibrary } from '../serialization/yaml-library.js';

export interface ClientConnection {
  readonly server: string;
  readonly caPem?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly bearerToken?: string;
  readonly basic?: { readonly username: string; readonly password: string };
}

type Entry = Record<string, unknown>;

/** The current context's connection. Throws with clientcmd's kind of words when it cannot be made. */
export function loadKubeconfig(path: string): ClientConnection {
  const text = readFileSync(path, 'utf8');
  let doc: unknown;
  try {
    doc = loadYamlLibrary().parse(text);
  } catch (err) {
    throw new Error(`error loading config file "${path}": ${(err as Error).message}`);
  }
  const config = (typeof doc === 'object' && doc !== null ? doc : {}) as Entry;
  const base = dirname(path);
  const contextName = stringOf(config['current-context']);
  const context = named(config['contexts'], contextName, 'context');
  const problems: string[] = [];
  if (contextName !== '' && context === undefined) problems.push(`context was not found for specified context: ${contextName}`);
  const clusterName = stringOf(context?.['cluster']);
  const cluster = named(config['clusters'], clusterName, 'cluster');
  if (clusterName !== '' && cluster === undefined) problems.push(`cluster was not found for specified cluster: ${clusterName}`);
  const userName = stringOf(context?.['user']);
  const user = named(config['users'], userName, 'user') ?? {};
  const server = stringOf(cluster?.['server']);
  if (server === '') {
    throw new Error(problems.length > 0 || contextName !== '' ? `invalid configuration: [${[...problems, 'cluster has no server defined'].join(', ')}]` : 'invalid configuration: no configuration has been provided');
  }
  if (user['exec'] !== undefined || user['auth-provider'] !== undefined) throw new Error(`invalid configuration: user "${userName}": exec and auth-provider credentials are not supported`);
  const file = (dataKey: string, fileKey: string, from: Entry | undefined): string | undefined => {
    const data = stringOf(from?.[dataKey]);
    if (data !== '') return Buffer.from(data, 'base64').toString('utf8');
    const name = stringOf(from?.[fileKey]);
    return name === '' ? undefined : readFileSync(isAbsolute(name) ? name : join(base, name), 'utf8');
  };
  const tokenFile = stringOf(user['tokenFile']);
  const token = stringOf(user['token']) || (tokenFile ? readFileSync(isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile), 'utf8').trim() : '');
  const username = stringOf(user['username']);
  const caPem = file('certificate-authority-data', 'certificate-authority', cluster);
  const certPem = file('client-certificate-data', 'client-certificate', user);
  const keyPem = file('client-key-data', 'client-key', user);
  const tlsServerName = stringOf(cluster?.['tls-server-name']);
  return {
    server,
    insecureSkipTlsVerify: cluster?.['insecure-skip-tls-verify'] === true,
    ...(caPem !== undefined ? { caPem } : {}),
    ...(tlsServerName !== '' ? { tlsServerName } : {}),
    ...(certPem !== undefined ? { certPem } : {}),
    ...(keyPem !== undefined ? { keyPem } : {}),
    ...(token !== '' ? { bearerToken: token } : {}),
    ...(username !== '' ? { basic: { username, password: stringOf(user['password']) } } : {}),
  };
}

/** The `field` of the list entry called `name` (clusters: cluster, users: user, contexts: context). */
function named(list: unknown, name: string, field: string): Entry | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list as Entry[]) {
    if (typeof item === 'object' && item !== null && stringOf(item['name']) === name) {
      const value = item[field];
      return typeof value === 'object' && value !== null ? (value as Entry) : {};
    }
  }
  return undefined;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
