/**
 * Per-type rules for metadata.name, chosen by each resource definition (upstream's
 * ValidateNameFunc). `prefix` is true when checking a generateName, which gets a random suffix: a
 * trailing dash is then acceptable.
 */
import { isDns1035Label, isDns1123Label, isDns1123Subdomain } from './dns-names.js';

/** Problems with `name` (empty when valid). */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * Makes a generateName with a trailing dash checkable as a name. Upstream drops the last two
 * characters and appends `a` (not just the dash); the quirk is kept because it decides which
 * prefixes are accepted.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** Most types: an RFC 1123 subdomain. */
export const nameIsDnsSubdomain: NameValidator = (name, prefix) => isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Namespaces and other names used as a DNS label. */
export const nameIsDnsLabel: NameValidator = (name, prefix) => isDns1123Label(prefix ? maskTrailingDash(name) : name);

/** Services: an RFC 1035 label. */
export const nameIsDns1035Label: NameValidator = (name, prefix) => isDns1035Label(prefix ? maskTrailingDash(name) : name);

/** The rule for metadata.namespace. */
export const validateNamespaceName: NameValidator = nameIsDnsLabel;

/**
 * Types that allow any name usable as a URL path segment (e.g. RBAC roles, custom resources with
 * no stricter rule): not `.` or `..`, no `/` or `%`. A prefix is only checked for `/` and `%`.
 */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

/**
 * RBAC roles and bindings: a path segment, and a generateName is held to the full rule too
 * (upstream's ValidateRBACName ignores its prefix flag), so "." and ".." are refused as prefixes.
 */
export const nameIsRbacName: NameValidator = (name) => nameIsPathSegment(name, false);

/** CertificateSigningRequests: any name at all (upstream's ValidateCertificateRequestName). */
export const nameIsUnconstrained: NameValidator = () => [];
