/**
 * Upstream's tokens controller, for legacy tokens: a Secret of type kubernetes.io/service-account-
 * token (or the spec's cluster.io spelling) that names a service account by annotation gets the
 * account's UID as an annotation and, in its data, a signed legacy token (auth/service-account/
 * legacy-token.ts), the cluster CA (`ca.crt`) and the namespace. A Secret naming an account that
 * does not exist, or another account of that name (its UID annotation differs), is deleted, and
 * so are an account's token Secrets when the account is deleted, as upstream's controller does.
 */
import { isNotFound } from '../api/errors.js';
import type { ServiceAccountRef } from '../auth/service-account/token-claims.js';
import { metaOf, type KubeObject } from '../registry/object.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import { canonicalSecretType, inSpellingOf, SERVICE_ACCOUNT_NAME_ANNOTATION } from '../api/secret-types.js';
import { ObjectWatcher } from './object-watcher.js';

const TOKEN_SECRET_TYPE = 'kubernetes.io/service-account-token';
const SERVICE_ACCOUNT_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

export interface ServiceAccountTokenControllerDeps {
  readonly secrets: ResourceStore;
  readonly serviceAccounts: ResourceStore;
  readonly issueLegacyToken: (account: ServiceAccountRef, secretName: string) => Promise<string>;
  /** The PEM bundle written as `ca.crt`. */
  readonly caPem: string;
  readonly log: (message: string) => void;
}

export class ServiceAccountTokenController {
  private readonly watchers: ObjectWatcher[];
  /** The token Secrets of each account, `namespace/account` to Secret names, to delete with it. */
  private readonly secretsOf = new Map<string, Set<string>>();

  constructor(private readonly deps: ServiceAccountTokenControllerDeps) {
    const log = (m: string): void => deps.log(`service account tokens: ${m}`);
    this.watchers = [
      new ObjectWatcher(deps.secrets, (event) => {
        const secret = event.entry.object;
        const { namespace, name } = metaOf(secret);
        const account = accountOf(secret);
        if (account === undefined) return;
        const key = `${namespace}/${account}`;
        if (event.type === 'DELETED') {
          this.secretsOf.get(key)?.delete(name!);
          return;
        }
        const names = this.secretsOf.get(key) ?? new Set<string>();
        this.secretsOf.set(key, names.add(name!));
        void this.sync(secret);
      }, log, isTokenSecret),
      new ObjectWatcher(deps.serviceAccounts, (event) => {
        if (event.type !== 'DELETED') return;
        const { namespace, name } = metaOf(event.entry.object);
        for (const secret of this.secretsOf.get(`${namespace}/${name}`) ?? []) void this.remove(namespace!, secret);
      }, log),
    ];
  }

  start(): void {
    for (const w of this.watchers) w.start();
  }

  async close(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.close()));
  }

  /** Fills in what the Secret lacks, or deletes it when its account is not there. */
  private async sync(secret: KubeObject): Promise<void> {
    const meta = metaOf(secret);
    const namespace = meta.namespace!;
    const name = meta.name!;
    if (meta.deletionTimestamp) return;
    const type = secret['type'] as string;
    const accountName = accountOf(secret)!;
    const uidKey = inSpellingOf(type, SERVICE_ACCOUNT_UID_ANNOTATION);
    const wantedUid = meta.annotations?.[uidKey] ?? meta.annotations?.[SERVICE_ACCOUNT_UID_ANNOTATION];
    const data = (secret['data'] ?? {}) as Record<string, string>;
    if (wantedUid && data['token'] && data['ca.crt'] && data['namespace']) return;
    let account: KubeObject;
    try {
      account = await this.deps.serviceAccounts.get(namespace, accountName, { kind: 'consistent' });
    } catch (err) {
      if (isNotFound(err)) return this.remove(namespace, name);
      return this.deps.log(`service account tokens: reading ${namespace}/${accountName}: ${(err as Error).message}`);
    }
    const uid = metaOf(account).uid!;
    if (wantedUid && wantedUid !== uid) return this.remove(namespace, name);
    try {
      const token = await this.deps.issueLegacyToken({ namespace, name: accountName, uid }, name);
      await this.deps.secrets.update(namespace, name, (current) => {
        const m = metaOf(current);
        return {
          ...current,
          metadata: { ...m, annotations: { ...m.annotations, [uidKey]: uid } },
          data: { ...((current['data'] ?? {}) as object), 'ca.crt': base64(this.deps.caPem), namespace: base64(namespace), token: base64(token) },
        };
      }, { dryRun: false, subresource: '' });
    } catch (err) {
      if (!isNotFound(err)) this.deps.log(`service account tokens: filling ${namespace}/${name}: ${(err as Error).message}`);
    }
  }

  private async remove(namespace: string, name: string): Promise<void> {
    try {
      await this.deps.secrets.delete(namespace, name, { dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) this.deps.log(`service account tokens: deleting ${namespace}/${name}: ${(err as Error).message}`);
    }
  }
}

function isTokenSecret(secret: KubeObject): boolean {
  return typeof secret['type'] === 'string' && canonicalSecretType(secret['type']) === TOKEN_SECRET_TYPE;
}

/** The account a token Secret names, in its type's spelling or upstream's. */
function accountOf(secret: KubeObject): string | undefined {
  if (!isTokenSecret(secret)) return undefined;
  const annotations = metaOf(secret).annotations ?? {};
  return annotations[inSpellingOf(secret['type'] as string, SERVICE_ACCOUNT_NAME_ANNOTATION)] || annotations[SERVICE_ACCOUNT_NAME_ANNOTATION] || undefined;
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
