/**
 * A PKCS#10 certificate request taken apart for its signature check, and a DER certificate chain
 * split into its certificates, with asn1js (Node's crypto verifies signatures and reads keys and
 * certificates, but cannot read a request). What does not parse is reported in the leading words
 * of Go's encoding/asn1 errors, which upstream shows clients (Go goes on to name its own structs).
 *
 * asn1js is loaded on the first request that needs it: certificate requests are rare, and loading
 * it at start would add milliseconds to every server start. Strategies validate synchronously, so
 * the load is a synchronous require.
 */
import { createRequire } from 'node:module';
import type * as Asn1 from 'asn1js';

/** What the signature check needs of a request. */
export interface SignedRequest {
  /** certificationRequestInfo as encoded: the signed bytes. */
  readonly signed: Uint8Array;
  /** subjectPublicKeyInfo as encoded (a DER SPKI for Node's createPublicKey). */
  readonly publicKeyInfo: Uint8Array;
  readonly publicKeyAlgorithm: string;
  readonly signatureAlgorithm: string;
  /** RSASSA-PSS parameters, when the signature algorithm has them in the form Go accepts. */
  readonly pss: { readonly hash: string; readonly saltLength: number } | undefined;
  readonly signature: Uint8Array;
}

/** An encoding that does not parse; the message is in Go's words. */
export class Asn1Error extends Error {
  override readonly name = 'Asn1Error';
}

const TAGS_DO_NOT_MATCH = "asn1: structure error: tags don't match";
const UNIVERSAL = 1;
const CONTEXT = 3;
const SEQUENCE = 16;
const BIT_STRING = 3;
const OBJECT_IDENTIFIER = 6;
const INTEGER = 2;

let loaded: typeof Asn1 | undefined;

function asn1(): typeof Asn1 {
  return (loaded ??= createRequire(import.meta.url)('asn1js') as typeof Asn1);
}

/** The request in `der`. Throws Asn1Error for anything Go's ParseCertificateRequest refuses to read. */
export function parseCertificateRequest(der: Uint8Array): SignedRequest {
  const root = parseWhole(der);
  const [info, algorithm, signature] = childrenOf(expect(root, UNIVERSAL, SEQUENCE), 3);
  const [, , publicKeyInfo, attributes] = childrenOf(expect(info!, UNIVERSAL, SEQUENCE), 4);
  expect(attributes!, CONTEXT, 0);
  const signatureBits = expect(signature!, UNIVERSAL, BIT_STRING) as Asn1.BitString;
  if (signatureBits.valueBlock.valueHexView.length === 0) throw new Asn1Error('asn1: syntax error: zero length BIT STRING');
  const [signatureOid, parameters] = childrenOf(expect(algorithm!, UNIVERSAL, SEQUENCE), 1);
  const [keyAlgorithm] = childrenOf(expect(publicKeyInfo!, UNIVERSAL, SEQUENCE), 2);
  const [keyOid] = childrenOf(expect(keyAlgorithm!, UNIVERSAL, SEQUENCE), 1);
  return {
    signed: info!.valueBeforeDecodeView,
    publicKeyInfo: publicKeyInfo!.valueBeforeDecodeView,
    publicKeyAlgorithm: oidOf(keyOid!),
    signatureAlgorithm: oidOf(signatureOid!),
    pss: parameters ? pssParameters(parameters) : undefined,
    signature: signatureBits.valueBlock.valueHexView,
  };
}

/** The DER elements one after another in `der` (a certificate chain), or Asn1Error. */
export function splitElements(der: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < der.length; ) {
    const parsed = asn1().fromBER(der.subarray(at));
    if (parsed.offset === -1) throw new Asn1Error('asn1: syntax error: data truncated');
    out.push(der.subarray(at, at + parsed.offset));
    at += parsed.offset;
  }
  return out;
}

/** One element that takes all of `der`, as Go reads a request before it looks past it. */
function parseWhole(der: Uint8Array): Asn1.AsnType {
  const parsed = asn1().fromBER(der);
  if (parsed.offset === -1) throw new Asn1Error('asn1: syntax error: data truncated');
  if (parsed.offset !== der.length) throw new Asn1Error('asn1: syntax error: trailing data');
  return parsed.result;
}

function expect(element: Asn1.AsnType, tagClass: number, tagNumber: number): Asn1.AsnType {
  const id = element.idBlock;
  if (id.tagClass !== tagClass || id.tagNumber !== tagNumber) throw new Asn1Error(TAGS_DO_NOT_MATCH);
  return element;
}

/** The elements inside a constructed one; at least `least` of them. */
function childrenOf(element: Asn1.AsnType, least: number): Asn1.AsnType[] {
  const value = (element.valueBlock as { value?: unknown }).value;
  const children = Array.isArray(value) ? (value as Asn1.AsnType[]) : [];
  if (children.length < least) throw new Asn1Error('asn1: syntax error: sequence truncated');
  return children;
}

function oidOf(element: Asn1.AsnType): string {
  return (expect(element, UNIVERSAL, OBJECT_IDENTIFIER) as Asn1.ObjectIdentifier).valueBlock.toString();
}

/**
 * RSASSA-PSS-params: the hash of [0] and the salt length of [2]; undefined when either is missing
 * (Go then does not know the algorithm).
 */
function pssParameters(parameters: Asn1.AsnType): SignedRequest['pss'] {
  if (parameters.idBlock.tagClass !== UNIVERSAL || parameters.idBlock.tagNumber !== SEQUENCE) return undefined;
  const field = (tag: number) => childrenOf(parameters, 0).find((c) => c.idBlock.tagClass === CONTEXT && c.idBlock.tagNumber === tag);
  const hashAlgorithm = field(0) && childrenOf(field(0)!, 1)[0];
  const hashOid = hashAlgorithm && childrenOf(hashAlgorithm, 1)[0];
  const salt = field(2) && childrenOf(field(2)!, 1)[0];
  if (!hashOid || !salt || salt.idBlock.tagNumber !== INTEGER) return undefined;
  return { hash: oidOf(hashOid), saltLength: (salt as Asn1.Integer).valueBlock.valueDec };
}
