/**
 * Who is asking, as an authenticator decided (upstream's user.Info). Shared by the layers that act
 * on it: authentication and authorization, and the registry, where a CertificateSigningRequest
 * records its requester.
 */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}
