import { describe, it } from 'node:test';
import type { FieldValidation } from '../../../src/patch/patch-request.js';
import { POD, assertApiError, edited, pod, smp, type Json } from './smp-fixtures.js';

const INVALID = 'the server rejected our request due to an error in our request';

interface ErrorCase {
  name: string;
  body: unknown;
  current?: Json;
  fieldValidation?: FieldValidation;
  code: number;
  reason: string;
  message: string;
}

const bodyCases: ErrorCase[] = [
  { name: 'an array', body: '[1]', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
  { name: 'a string', body: '"x"', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go value of type map[string]interface {}' },
  { name: 'a number (Ignore)', body: '42', fieldValidation: 'Ignore', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal number into Go value of type map[string]interface {}' },
  { name: 'truncated JSON', body: '{', code: 400, reason: 'BadRequest', message: 'unexpected end of JSON input' },
  { name: 'an empty body', body: '', code: 400, reason: 'BadRequest', message: 'unexpected end of JSON input' },
  { name: 'text after the object', body: '{} x', code: 400, reason: 'BadRequest', message: "invalid character 'x' after top-level value" },
  { name: 'not JSON', body: '{"a":}', code: 400, reason: 'BadRequest', message: "invalid character '}' looking for beginning of value" },
];

// Upstream maps five sentinel errors to 400 and two to 422; every other merge error is a 500 without
// a reason, its message passed through (kubectl prints `Error from server: <message>`).
const mergeCases: ErrorCase[] = [
  {
    name: 'a list element without its merge key',
    body: { spec: { containers: [{ image: 'x' }] } },
    code: 500,
    reason: '',
    message: 'map: map[image:x] does not contain declared merge key: name',
  },
  {
    name: 'a delete directive without the merge key',
    body: { spec: { containers: [{ $patch: 'delete' }] } },
    code: 500,
    reason: '',
    message: 'map: map[$patch:delete] does not contain declared merge key: name',
  },
  {
    name: 'an unknown $patch in a list element',
    body: { spec: { containers: [{ name: 'app', $patch: 'bogus' }] } },
    code: 500,
    reason: '',
    message: 'unknown patch type: bogus in map: map[$patch:bogus name:app]',
  },
  {
    name: 'an unknown $patch in a map',
    body: { metadata: { labels: { $patch: 7, a: 'b' } } },
    code: 500,
    reason: '',
    message: 'unknown patch type: %!s(int64=7) in map: map[$patch:7 a:b]',
  },
  { name: '$patch: merge in a map, which upstream rejects', body: { metadata: { labels: { $patch: 'merge' } } }, code: 500, reason: '', message: 'unknown patch type: merge in map: map[$patch:merge]' },
  {
    name: '$patch: merge in a list, which upstream rejects',
    body: { spec: { containers: [{ $patch: 'merge' }] } },
    code: 500,
    reason: '',
    message: 'merging lists cannot yet be specified in the patch',
  },
  { name: '$retainKeys that is not a list', body: { spec: { $retainKeys: 'containers' } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  {
    name: 'a field that $retainKeys does not list',
    body: { spec: { $retainKeys: ['containers'], hostname: 'h' } },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of retainKeys',
  },
  { name: '$setElementOrder without a field', body: { spec: { $setElementOrder: [] } }, code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
  {
    name: '$deleteFromPrimitiveList without a field',
    body: { metadata: { $deleteFromPrimitiveList: ['a'] } },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of primitive list',
  },
  {
    name: '$setElementOrder that is not a list',
    body: { spec: { '$setElementOrder/containers': 'app' } },
    code: 500,
    reason: '',
    message: 'expected a []interface {}, but received a string',
  },
  {
    name: '$setElementOrder for a field the type does not have',
    body: { spec: { '$setElementOrder/nope': [] } },
    code: 500,
    reason: '',
    message: 'unable to find api field in struct PodSpec for the json field "nope"',
  },
  {
    name: 'a patch list out of the $setElementOrder order',
    body: { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'sidecar', image: 'x' }] } },
    code: 500,
    reason: '',
    message: "The order in patch list:\n[map[image:x name:sidecar]]\n doesn't match $setElementOrder list:\n[map[name:app]]\n",
  },
  {
    name: 'a list of lists merged into an empty list',
    current: edited(pod(), (d) => (d.metadata.finalizers = [])),
    body: { metadata: { finalizers: [['a']] } },
    code: 422,
    reason: 'Invalid',
    message: INVALID,
  },
  {
    name: 'a list merged into a list of scalars',
    body: { metadata: { finalizers: [['a']] } },
    code: 500,
    reason: '',
    message: 'list element types are not identical: [[a.io/one b.io/two] [[a]]]',
  },
  {
    name: 'a merged list of mixed types',
    body: { metadata: { finalizers: ['x', 1.5] } },
    code: 500,
    reason: '',
    message: 'list element types are not identical: [[a.io/one b.io/two] [x 1.5]]',
  },
  {
    name: 'a list of maps with strategy merge but no merge key',
    body: { metadata: { finalizers: [{ a: 1 }] } },
    code: 500,
    reason: '',
    message: 'list element types are not identical: [[a.io/one b.io/two] [map[a:1]]]',
  },
];

function run(cases: ErrorCase[]): void {
  for (const c of cases) {
    it(c.name, () => {
      assertApiError(() => smp(POD, c.current ?? pod(), c.body, c.fieldValidation), c.code, c.reason, c.message);
    });
  }
}

describe('strategic merge patch errors: body', () => run(bodyCases));
describe('strategic merge patch errors: merge', () => run(mergeCases));
