/**
 * The DER of the X.509 v3 certificates the server issues (RFC 5280, section 4.1), written with
 * asn1js; Node's crypto makes the keys and the signature and parses certificates, but cannot write
 * one. Only what a cluster CA needs is here: names of CN and O, validity, the public key as Node
 * exports it, and the extensions of a CA, a serving and a client certificate.
 *
 * The encoder loads asn1js on first use: most starts reuse their certificates and never write one.
 * It loads it with import(), so that the bundle carries it and a first start reads it from the code
 * cache (~1-2 ms); pkcs10-request.ts, which must load it synchronously, takes node_modules' copy.
 * (A general X.509 library took 40-60 ms to load at startup and ~15 ms per certificate; a first
 * start now writes the CA in ~7 ms and each leaf in ~3 ms, keys included.)
 */
import { createHash } from 'node:crypto';
import type * as Asn1 from 'asn1js';

/** The fields of a TBSCertificate; byte strings are DER. */
export interface CertificateFields {
  /** A positive integer's big-endian bytes, minimal (no leading zero byte unless the next has its top bit set). */
  readonly serial: Uint8Array;
  readonly issuer: Uint8Array;
  readonly subject: Uint8Array;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** SubjectPublicKeyInfo, as KeyObject.export({type: 'spki', format: 'der'}) gives it. */
  readonly publicKeyInfo: Uint8Array;
  readonly extensions: readonly CertificateExtension[];
}

export interface CertificateExtension {
  readonly oid: string;
  readonly critical: boolean;
  /** The DER the extnValue OCTET STRING holds. */
  readonly value: Uint8Array;
}

export type KeyUsage = 'digitalSignature' | 'keyEncipherment' | 'keyCertSign' | 'cRLSign';

/** Bit numbers of KeyUsage (RFC 5280, section 4.2.1.3). */
const KEY_USAGE_BITS: Record<KeyUsage, number> = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 };

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

const CONTEXT_SPECIFIC = 3;
/** GeneralName choices (RFC 5280, section 4.2.1.6). */
const DNS_NAME = 2;
const IP_ADDRESS = 7;
/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
const FIRST_GENERALIZED_TIME = Date.UTC(2050, 0, 1);

export type ExtendedKeyUsage = 'serverAuth' | 'clientAuth';

/** A subject alternative name: a DNS name, or an IP address as its 4 or 16 bytes. */
export type AltName = { readonly dns: string } | { readonly ip: Uint8Array };

export class CertificateDer {
  private constructor(private readonly asn1: typeof Asn1) {}

  static async load(): Promise<CertificateDer> {
    return new CertificateDer(await import('asn1js'));
  }

  /** A Name of a common name and, in order, organizations; UTF8String values, one attribute per RDN. */
  name(commonName: string, organizations: readonly string[] = []): Uint8Array {
    const { Sequence, Set, ObjectIdentifier, Utf8String } = this.asn1;
    const rdn = (oid: string, value: string) =>
      new Set({ value: [new Sequence({ value: [new ObjectIdentifier({ value: oid }), new Utf8String({ value })] })] });
    return der(new Sequence({ value: [rdn(OID.commonName, commonName), ...organizations.map((o) => rdn(OID.organization, o))] }));
  }

  /**
   * The Certificate of `fields`, signed with ECDSA and SHA-256 by `sign`, which is given the DER of
   * the TBSCertificate and returns the signature as a DER ECDSA-Sig-Value (as Node's crypto.sign does).
   */
  certificate(fields: CertificateFields, sign: (toBeSigned: Uint8Array) => Uint8Array): Uint8Array {
    const { Sequence, Constructed, Integer, Boolean, OctetString, ObjectIdentifier, BitString } = this.asn1;
    const extensions = fields.extensions.map(
      (e) =>
        new Sequence({
          value: [
            new ObjectIdentifier({ value: e.oid }),
            ...(e.critical ? [new Boolean({ value: true })] : []),
            new OctetString({ valueHex: e.value }),
          ],
        }),
    );
    const toBeSigned = new Sequence({
      value: [
        new Constructed({ idBlock: { tagClass: CONTEXT_SPECIFIC, tagNumber: 0 }, value: [new Integer({ value: 2 })] }),
        new Integer({ valueHex: fields.serial }),
        this.signatureAlgorithm(),
        this.parsed(fields.issuer),
        new Sequence({ value: [this.time(fields.notBefore), this.time(fields.notAfter)] }),
        this.parsed(fields.subject),
        this.parsed(fields.publicKeyInfo),
        new Constructed({ idBlock: { tagClass: CONTEXT_SPECIFIC, tagNumber: 3 }, value: [new Sequence({ value: extensions })] }),
      ],
    });
    // The same block is encoded again inside the certificate, to the same bytes.
    const signature = sign(der(toBeSigned));
    return der(new Sequence({ value: [toBeSigned, this.signatureAlgorithm(), new BitString({ valueHex: signature })] }));
  }

  basicConstraints(ca: boolean): CertificateExtension {
    const { Sequence, Boolean } = this.asn1;
    // DER leaves out a BOOLEAN at its DEFAULT (cA is FALSE by default).
    return { oid: OID.basicConstraints, critical: true, value: der(new Sequence({ value: ca ? [new Boolean({ value: true })] : [] })) };
  }

  keyUsage(usages: readonly [KeyUsage, ...KeyUsage[]]): CertificateExtension {
    const bits = usages.map((u) => KEY_USAGE_BITS[u]);
    const highest = Math.max(...bits);
    const bytes = new Uint8Array((highest >> 3) + 1);
    for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
    // DER: no trailing zero bits, so the bits after the highest set one are unused.
    return { oid: OID.keyUsage, critical: true, value: der(new this.asn1.BitString({ valueHex: bytes, unusedBits: 7 - (highest & 7) })) };
  }

  extendedKeyUsage(usages: readonly ExtendedKeyUsage[]): CertificateExtension {
    const { Sequence, ObjectIdentifier } = this.asn1;
    return { oid: OID.extKeyUsage, critical: false, value: der(new Sequence({ value: usages.map((u) => new ObjectIdentifier({ value: OID[u] })) })) };
  }

  subjectKeyIdentifier(keyId: Uint8Array): CertificateExtension {
    return { oid: OID.subjectKeyIdentifier, critical: false, value: der(new this.asn1.OctetString({ valueHex: keyId })) };
  }

  authorityKeyIdentifier(keyId: Uint8Array): CertificateExtension {
    const { Sequence, Primitive } = this.asn1;
    const keyIdentifier = new Primitive({ idBlock: { tagClass: CONTEXT_SPECIFIC, tagNumber: 0 }, valueHex: keyId });
    return { oid: OID.authorityKeyIdentifier, critical: false, value: der(new Sequence({ value: [keyIdentifier] })) };
  }

  subjectAltNames(names: readonly AltName[]): CertificateExtension {
    const { Sequence, Primitive } = this.asn1;
    const general = (name: AltName) =>
      'dns' in name
        ? new Primitive({ idBlock: { tagClass: CONTEXT_SPECIFIC, tagNumber: DNS_NAME }, valueHex: Buffer.from(name.dns, 'ascii') })
        : new Primitive({ idBlock: { tagClass: CONTEXT_SPECIFIC, tagNumber: IP_ADDRESS }, valueHex: name.ip });
    return { oid: OID.subjectAltName, critical: false, value: der(new Sequence({ value: names.map(general) })) };
  }

  /**
   * A certificate's subject Name and its subject key identifier (the extension's, or, when it has
   * none, one computed from its key): what a certificate it issues names as issuer and authority key.
   */
  issuerOf(certificate: Uint8Array): { readonly subject: Uint8Array; readonly keyId: Uint8Array } {
    const { Sequence, Constructed, OctetString, ObjectIdentifier, fromBER } = this.asn1;
    const parsed = fromBER(certificate);
    if (parsed.offset === -1 || !(parsed.result instanceof Sequence)) throw new Error('not a DER certificate');
    const tbs = parsed.result.valueBlock.value[0];
    if (!(tbs instanceof Sequence)) throw new Error('not a DER certificate');
    // version [0] is present in a v3 certificate; the subject follows serial, signature, issuer, validity.
    const fields = tbs.valueBlock.value;
    const offset = fields[0]?.idBlock.tagClass === CONTEXT_SPECIFIC ? 1 : 0;
    const subject = fields[offset + 4];
    const publicKeyInfo = fields[offset + 5];
    if (!subject || !publicKeyInfo) throw new Error('not a DER certificate');
    let keyId: Uint8Array | undefined;
    const tagged = fields.find((f) => f instanceof Constructed && f.idBlock.tagClass === CONTEXT_SPECIFIC && f.idBlock.tagNumber === 3);
    const extensions = (tagged as Asn1.Constructed | undefined)?.valueBlock.value[0];
    for (const extension of extensions instanceof Sequence ? extensions.valueBlock.value : []) {
      if (!(extension instanceof Sequence)) continue;
      const [oid, ...rest] = extension.valueBlock.value;
      const value = rest[rest.length - 1];
      if (oid instanceof ObjectIdentifier && oid.valueBlock.toString() === OID.subjectKeyIdentifier && value instanceof OctetString) {
        const inner = fromBER(value.valueBlock.valueHexView);
        if (inner.result instanceof OctetString) keyId = inner.result.valueBlock.valueHexView;
      }
    }
    return {
      subject: new Uint8Array(subject.valueBeforeDecodeView),
      keyId: new Uint8Array(keyId ?? this.keyIdentifier(publicKeyInfo.valueBeforeDecodeView)),
    };
  }

  /** RFC 5280's first method: SHA-1 of the subjectPublicKey bits of a SubjectPublicKeyInfo. */
  keyIdentifier(publicKeyInfo: Uint8Array): Uint8Array {
    const spki = this.parsed(publicKeyInfo) as Asn1.Sequence;
    const bits = spki.valueBlock.value[1];
    if (!(bits instanceof this.asn1.BitString)) throw new Error('not a SubjectPublicKeyInfo');
    return createHash('sha1').update(bits.valueBlock.valueHexView).digest();
  }

  private signatureAlgorithm(): Asn1.Sequence {
    // ECDSA's AlgorithmIdentifier has no parameters, not even NULL (RFC 5758, section 3.2).
    return new this.asn1.Sequence({ value: [new this.asn1.ObjectIdentifier({ value: OID.ecdsaWithSha256 })] });
  }

  private time(date: Date): Asn1.UTCTime | Asn1.GeneralizedTime {
    // Whole seconds: DER times carry no fraction (RFC 5280, section 4.1.2.5.2).
    const valueDate = new Date(Math.floor(date.getTime() / 1000) * 1000);
    return valueDate.getTime() < FIRST_GENERALIZED_TIME ? new this.asn1.UTCTime({ valueDate }) : new this.asn1.GeneralizedTime({ valueDate });
  }

  private parsed(bytes: Uint8Array): Asn1.AsnType {
    const parsed = this.asn1.fromBER(bytes);
    if (parsed.offset === -1) throw new Error(`cannot parse DER: ${parsed.result.error}`);
    return parsed.result;
  }
}

function der(block: Asn1.BaseBlock): Uint8Array {
  return new Uint8Array(block.toBER(false));
}
