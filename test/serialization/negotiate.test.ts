import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { negotiateOutput } from '../../src/serialization/negotiate.js';
import type { OutputRestrictions } from '../../src/serialization/negotiate.js';
import { standardCodecs } from '../../src/serialization/standard-codecs.js';

const registry = standardCodecs();
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const NOT_ACCEPTABLE = 'only the following media types are accepted: application/json, application/yaml';

interface Case {
  name: string;
  accept?: string;
  restrictions?: OutputRestrictions;
  want?: { contentType: string; representation?: string; target?: { group: string; version: string }; pretty?: boolean };
  error?: string;
}

const cases: Case[] = [
  { name: 'no Accept: JSON', want: { contentType: 'application/json' } },
  { name: 'empty Accept: JSON', accept: '', want: { contentType: 'application/json' } },
  { name: 'JSON', accept: 'application/json', want: { contentType: 'application/json' } },
  { name: 'YAML', accept: 'application/yaml', want: { contentType: 'application/yaml' } },
  { name: 'types are case-insensitive', accept: 'Application/YAML', want: { contentType: 'application/yaml' } },
  { name: 'any type: preferred codec', accept: '*/*', want: { contentType: 'application/json' } },
  { name: 'bare star', accept: '*', want: { contentType: 'application/json' } },
  { name: 'any subtype', accept: 'application/*', want: { contentType: 'application/json' } },
  { name: 'fallback after unknown', accept: 'text/html, application/yaml;q=0.5', want: { contentType: 'application/yaml' } },
  { name: 'quality decides', accept: 'application/yaml;q=0.5, application/json', want: { contentType: 'application/json' } },
  { name: 'concrete before wildcard at equal quality', accept: '*/*, application/yaml', want: { contentType: 'application/yaml' } },
  { name: 'q=0 refuses a type', accept: 'application/json;q=0, application/yaml;q=0.1', want: { contentType: 'application/yaml' } },
  { name: 'browser Accept', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', want: { contentType: 'application/json' } },
  { name: 'unknown type', accept: 'text/html', error: NOT_ACCEPTABLE },
  { name: 'malformed clauses skipped', accept: 'application/json/x, foo', error: NOT_ACCEPTABLE },
  {
    name: 'kubectl table',
    accept: KUBECTL_TABLE,
    want: { contentType: 'application/json', representation: 'Table', target: { group: 'meta.k8s.io', version: 'v1' } },
  },
  {
    name: 'table in the spec spelling',
    accept: 'application/json;as=Table;g=meta.cluster.io;v=v1',
    want: { contentType: 'application/json', representation: 'Table', target: { group: 'meta.cluster.io', version: 'v1' } },
  },
  {
    name: 'table in YAML',
    accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1beta1',
    want: { contentType: 'application/yaml', representation: 'Table', target: { group: 'meta.k8s.io', version: 'v1beta1' } },
  },
  { name: 'no table: fallback to object', accept: KUBECTL_TABLE, restrictions: { table: false }, want: { contentType: 'application/json', representation: 'object' } },
  { name: 'no table and no fallback', accept: 'application/json;as=Table;g=meta.k8s.io;v=v1', restrictions: { table: false }, error: NOT_ACCEPTABLE },
  {
    name: 'metadata-only list',
    accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    want: { contentType: 'application/json', representation: 'PartialObjectMetadataList', target: { group: 'meta.k8s.io', version: 'v1' } },
  },
  {
    name: 'metadata-only object',
    accept: 'application/yaml;as=PartialObjectMetadata;g=meta.cluster.io;v=v1',
    want: { contentType: 'application/yaml', representation: 'PartialObjectMetadata', target: { group: 'meta.cluster.io', version: 'v1' } },
  },
  { name: 'metadata-only refused', accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', restrictions: { partialObjectMetadata: false }, error: NOT_ACCEPTABLE },
  { name: 'conversion in another group', accept: 'application/json;as=Table;g=example.com;v=v1', error: NOT_ACCEPTABLE },
  { name: 'conversion to an unknown kind', accept: 'application/json;as=Foo;g=meta.k8s.io;v=v1', error: NOT_ACCEPTABLE },
  { name: 'conversion without a version', accept: 'application/json;as=Table;g=meta.k8s.io', error: NOT_ACCEPTABLE },
  { name: 'pretty parameter', accept: 'application/json;pretty=1', want: { contentType: 'application/json', pretty: true } },
  { name: 'unknown parameters ignored', accept: 'application/json;charset=utf-8', want: { contentType: 'application/json' } },
  { name: 'server version parameter refused', accept: 'application/json;sv=v1', error: NOT_ACCEPTABLE },
  { name: 'stream parameter on a plain request', accept: 'application/json;stream=watch', want: { contentType: 'application/json' } },
  { name: 'YAML cannot stream', accept: 'application/yaml;stream=watch', error: NOT_ACCEPTABLE },
  { name: 'endpoint without YAML', accept: 'application/yaml', restrictions: { mediaTypes: ['application/json'] }, error: NOT_ACCEPTABLE },
  { name: 'watch in JSON', accept: 'application/json', restrictions: { stream: true }, want: { contentType: 'application/json' } },
  {
    name: 'watch table',
    accept: KUBECTL_TABLE,
    restrictions: { stream: true },
    want: { contentType: 'application/json', representation: 'Table', target: { group: 'meta.k8s.io', version: 'v1' } },
  },
  {
    name: 'watch in YAML',
    accept: 'application/yaml',
    restrictions: { stream: true },
    error: 'only the following media types are accepted: application/json;stream=watch',
  },
];

describe('negotiateOutput', () => {
  // The second pass meets every outcome memoized by the first (the same Accept header under other
  // restrictions included), and must answer the same; refusals are never memoized.
  for (const c of [...cases, ...cases.map((c) => ({ ...c, name: `${c.name}, asked again` }))]) {
    it(c.name, () => {
      if (c.error !== undefined) {
        assert.throws(
          () => negotiateOutput(c.accept, registry, c.restrictions),
          (err: unknown) => err instanceof ApiError && err.code === 406 && err.reason === 'NotAcceptable' && err.message === c.error,
        );
        return;
      }
      const got = negotiateOutput(c.accept, registry, c.restrictions);
      assert.equal(got.contentType, c.want!.contentType);
      assert.equal(got.codec.mediaTypes[0], c.want!.contentType);
      assert.equal(got.representation, c.want!.representation ?? 'object');
      assert.deepEqual(got.target, c.want!.target);
      assert.equal(got.pretty, c.want!.pretty ?? false);
    });
  }
});
