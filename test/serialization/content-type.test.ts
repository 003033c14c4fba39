import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { requestCodec } from '../../src/serialization/content-type.js';
import { BUILT_IN_PATCH_KINDS, CUSTOM_RESOURCE_PATCH_KINDS, PatchKind, patchKindOf } from '../../src/serialization/patch-content-type.js';
import { prettyRequested } from '../../src/serialization/pretty.js';
import { standardCodecs } from '../../src/serialization/standard-codecs.js';
import { CodecRegistry } from '../../src/serialization/codec.js';
import { JsonCodec } from '../../src/serialization/json-codec.js';

const registry = standardCodecs();
const is415 = (message: string) => (err: unknown) => err instanceof ApiError && err.code === 415 && err.reason === 'UnsupportedMediaType' && err.message === message;

describe('requestCodec', () => {
  const cases: { name: string; contentType: string | undefined; want?: string }[] = [
    { name: 'absent: JSON', contentType: undefined, want: 'application/json' },
    { name: 'empty: JSON', contentType: '', want: 'application/json' },
    { name: 'JSON', contentType: 'application/json', want: 'application/json' },
    { name: 'JSON with charset', contentType: 'application/json; charset=utf-8', want: 'application/json' },
    { name: 'quoted parameter', contentType: 'application/json;charset="utf-8"', want: 'application/json' },
    { name: 'case-insensitive', contentType: 'Application/JSON', want: 'application/json' },
    { name: 'YAML', contentType: 'application/yaml', want: 'application/yaml' },
    { name: 'unknown type', contentType: 'text/plain' },
    { name: 'patch type on create', contentType: 'application/merge-patch+json' },
    { name: 'malformed parameter', contentType: 'application/json; charset' },
    { name: 'no subtype', contentType: 'application' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      // The second time, the answer comes from what the first one remembered.
      for (let time = 0; time < 2; time++) {
        if (c.want !== undefined) {
          assert.equal(requestCodec(c.contentType, registry).mediaTypes[0], c.want);
        } else {
          assert.throws(
            () => requestCodec(c.contentType, registry),
            is415('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml'),
          );
        }
      }
    });
  }

  it('answers for each registry by its own codecs', () => {
    const jsonOnly = new CodecRegistry([new JsonCodec()]);
    assert.equal(requestCodec('application/yaml', registry).mediaTypes[0], 'application/yaml');
    assert.throws(() => requestCodec('application/yaml', jsonOnly), is415('the body of the request was in an unknown format - accepted media types include: application/json'));
    assert.equal(requestCodec('application/yaml', registry).mediaTypes[0], 'application/yaml');
  });
});

describe('patchKindOf', () => {
  const cases: { name: string; contentType: string | undefined; accepted?: readonly PatchKind[]; want?: PatchKind }[] = [
    { name: 'JSON patch', contentType: 'application/json-patch+json', want: PatchKind.JsonPatch },
    { name: 'merge patch with charset', contentType: 'application/merge-patch+json; charset=utf-8', want: PatchKind.MergePatch },
    { name: 'strategic merge patch', contentType: 'application/strategic-merge-patch+json', want: PatchKind.StrategicMergePatch },
    { name: 'apply YAML', contentType: 'application/apply-patch+yaml', want: PatchKind.ApplyYaml },
    { name: 'apply CBOR when enabled', contentType: 'application/apply-patch+cbor', accepted: [...BUILT_IN_PATCH_KINDS, PatchKind.ApplyCbor], want: PatchKind.ApplyCbor },
    { name: 'apply CBOR when disabled', contentType: 'application/apply-patch+cbor' },
    { name: 'plain JSON is not a patch', contentType: 'application/json' },
    { name: 'compared exactly, as upstream', contentType: 'Application/Merge-Patch+JSON' },
    { name: 'absent', contentType: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const accepted = c.accepted ?? BUILT_IN_PATCH_KINDS;
      if (c.want !== undefined) {
        assert.equal(patchKindOf(c.contentType, accepted), c.want);
      } else {
        assert.throws(
          () => patchKindOf(c.contentType, accepted),
          is415(
            'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
          ),
        );
      }
    });
  }

  it('custom resources take no strategic merge patch', () => {
    assert.throws(
      () => patchKindOf('application/strategic-merge-patch+json', CUSTOM_RESOURCE_PATCH_KINDS),
      is415('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'),
    );
  });
});

describe('prettyRequested', () => {
  const cases: { name: string; query: string; userAgent?: string; want: boolean }[] = [
    { name: 'program', query: '', userAgent: 'kubectl/v1.32.0 (linux/amd64)', want: false },
    { name: 'no user agent', query: '', want: false },
    { name: 'curl', query: '', userAgent: 'curl/8.5.0', want: true },
    { name: 'Wget', query: '', userAgent: 'Wget/1.21', want: true },
    { name: 'browser', query: '', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', want: true },
    { name: 'pretty=true', query: 'pretty=true', userAgent: 'kubectl', want: true },
    { name: 'pretty=1', query: 'pretty=1', want: true },
    { name: 'pretty=false beats curl', query: 'pretty=false', userAgent: 'curl/8.5.0', want: false },
    { name: 'unparsable is false', query: 'pretty=yes', userAgent: 'curl/8.5.0', want: false },
    { name: 'empty value falls back to the agent', query: 'pretty=', userAgent: 'curl/8.5.0', want: true },
  ];
  for (const c of cases) it(c.name, () => assert.equal(prettyRequested(new URLSearchParams(c.query), c.userAgent), c.want));
});
