/** The admin kubeconfig: one cluster, one user (the admin client certificate), one context. */
import { writeAtomic } from './pem-files.js';
import type { KeyPairPem } from './certificate-authority.js';

export interface KubeconfigSpec {
  /** `https://host:port`. */
  readonly server: string;
  readonly caPem: string;
  readonly client: KeyPairPem;
  /** Cluster and context name. */
  readonly name: string;
  readonly userName: string;
}

/** Renders the kubeconfig YAML. */
export function renderKubeconfig(spec: KubeconfigSpec): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${spec.name}`,
    '  cluster:',
    `    certificate-authority-data: ${b64(spec.caPem)}`,
    `    server: ${spec.server}`,
    'users:',
    `- name: ${spec.userName}`,
    '  user:',
    `    client-certificate-data: ${b64(spec.client.certPem)}`,
    `    client-key-data: ${b64(spec.client.keyPem)}`,
    'contexts:',
    `- name: ${spec.name}`,
    '  context:',
    `    cluster: ${spec.name}`,
    `    user: ${spec.userName}`,
    `current-context: ${spec.name}`,
    'preferences: {}',
    '',
  ].join('\n');
}

/** Writes the kubeconfig (owner-readable only: it holds a private key). */
export async function writeKubeconfig(path: string, spec: KubeconfigSpec): Promise<void> {
  await writeAtomic(path, renderKubeconfig(spec), true);
}
