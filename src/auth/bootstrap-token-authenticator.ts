/**
 * Bootstrap tokens (--enable-bootstrap-token-auth), as upstream's authenticator reads them: a
 * bearer token `<id>.<secret>` (6 and 16 of [a-z0-9]) names the Secret `bootstrap-token-<id>` of
 * type bootstrap.kubernetes.io/token in kube-system, which must hold that secret, allow
 * authentication (`usage-bootstrap-authentication: "true"`) and not have expired. The user is
 * `system:bootstrap:<id>`, in system:bootstrappers and the Secret's `auth-extra-groups`. The type
 * may be spelled `bootstrap.cluster.io/token` too (the spec's spelling). Any
 * other token, or a Secret that does not fit, is no opinion, as upstream (the request is then 401
 * unless another authenticator knows the token).
 */
import { constantTimeEqual } from '../util/constant-time.js';
import type { TokenAuthenticator } from './bearer-token-authenticator.js';
import type { UserInfo } from './user-info.js';
import { canonicalSecretType } from '../api/secret-types.js';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
const SECRET_PREFIX = 'bootstrap-token-';
const USER_PREFIX = 'system:bootstrap:';
const GROUP = 'system:bootstrappers';
/** Extra groups must be under this prefix (and valid group names): a token grants no other group. */
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** The Secret `name` of kube-system as stored (its `data` base64), or undefined when there is none. */
export type SecretLookup = (name: string) => Promise<Record<string, unknown> | undefined>;

export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly secretNamed: SecretLookup,
    private readonly log: (message: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticateToken(token: string): Promise<UserInfo | undefined> {
    const match = TOKEN.exec(token);
    if (match === null) return undefined;
    const [, id, secret] = match as unknown as [string, string, string];
    const name = SECRET_PREFIX + id;
    const object = await this.secretNamed(name);
    if (object === undefined) return this.refuse(`No secret of name ${name} to match bootstrap bearer token`);
    const meta = (object['metadata'] ?? {}) as { deletionTimestamp?: string };
    if (meta.deletionTimestamp) return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} is being deleted`);
    if (typeof object['type'] !== 'string' || canonicalSecretType(object['type']) !== BOOTSTRAP_TOKEN_SECRET_TYPE) return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}`);
    const data = decodedData(object['data']);
    const stored = data['token-secret'] ?? '';
    if (!constantTimeEqual(stored, secret)) {
      return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} does not match the token`);
    }
    if (data['token-id'] !== id) return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} has an invalid token-id`);
    const expiration = data['expiration'];
    if (expiration !== undefined && expiration !== '') {
      const at = Date.parse(expiration);
      if (Number.isNaN(at) || this.now() > at) return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} has expired`);
    }
    if (data['usage-bootstrap-authentication'] !== 'true') return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} not marked usage-bootstrap-authentication=true`);
    const extra = (data['auth-extra-groups'] ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '');
    const invalid = extra.find((g) => !EXTRA_GROUP.test(g));
    if (invalid !== undefined) return this.refuse(`Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} has invalid auth-extra-groups: ${JSON.stringify(invalid)}`);
    return { name: USER_PREFIX + id, groups: [GROUP, ...new Set(extra)] };
  }

  private refuse(message: string): undefined {
    this.log(message);
    return undefined;
  }
}

/** A Secret's `data`, each value base64-decoded to text; values that are not strings are left out. */
function decodedData(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof data !== 'object' || data === null) return out;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string') out[key] = Buffer.from(value, 'base64').toString('utf8');
  }
  return out;
}
