// read/shapeKeeper.ts: one skeleton per record structure, bounded, never thrown by hostile input.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { keepShape, keptShapes, keptTextIncludes, MAX_CHARS, MAX_SHAPES } from '../../../src/core/read/shapeKeeper';

test('one skeleton per structure: other string values share it, other keys, key order or number kinds do not', () => {
  const before = keptShapes().shapes;
  keepShape(JSON.parse('{"zz_type":"user","zz_text":"a long text that is not kept","zz_n":1}') as object);
  keepShape(JSON.parse('{"zz_type":"assistant","zz_text":"another","zz_n":2}') as object);
  assert.equal(keptShapes().shapes, before + 1);
  keepShape(JSON.parse('{"zz_text":"x","zz_type":"user","zz_n":1}') as object);
  keepShape(JSON.parse('{"zz_type":"user","zz_text":"x","zz_n":1.5}') as object);
  keepShape(JSON.parse('{"zz_type":"user","zz_text":"x","zz_n":1,"zz_more":[{"a":"b"}]}') as object);
  assert.equal(keptShapes().shapes, before + 4);
});

test('strings are not kept: a 1 MB text adds only its keys to the kept characters', () => {
  const before = keptShapes().chars;
  keepShape(JSON.parse(JSON.stringify({ zz_big: 'x'.repeat(1 << 20), zz_kind: 'big' })) as object);
  const added = keptShapes().chars - before;
  assert.ok(added > 0 && added < 100, `added ${added} characters`);
});

test('no user text is kept: keys that are not field names (paths, a model\'s broken JSON) and numbers stay out', () => {
  const before = keptShapes();
  // Claude Code's file-history records key a map by path; a model that broke its JSON can put a whole call in a key.
  keepShape(JSON.parse('{"zz_backups":{"/home/alice/secret-project/.env":{"zz_version":31337}}}') as object);
  keepShape(JSON.parse(JSON.stringify({ zz_input: { [`{"command": "curl -H 'Authorization: Bearer ${'s'.repeat(200_000)}`]: 1 } })) as object);
  keepShape(JSON.parse('{"zz_pin":987654321,"zz_ratio":2.718281828}') as object);
  for (const text of ['alice', '.env', 'Bearer', '31337', '987654321', '2.718']) assert.ok(!keptTextIncludes(text), `"${text}" is kept`);
  // Not kept, and no key table growing with hostile names: 2,000 keys of 50,000 characters each.
  for (let i = 0; i < 2000; i++) keepShape({ [`${i}`.padEnd(50_000, 'k')]: 1 });
  const after = keptShapes();
  assert.ok(after.keyChars - before.keyChars < 10_000, `key names kept: ${after.keyChars - before.keyChars} characters`);
  assert.equal(after.shapes, before.shapes + 1, 'only the record of field names and numbers is kept');
});

test('a record of more values than a record structure has is not kept: its skeleton would cost several times its parse', () => {
  const before = keptShapes();
  // 50,000 numbers (a new structure for each length): JSON.stringify with the skeleton's replacer took ~5× JSON.parse.
  for (const n of [50_000, 50_001]) assert.equal(keepShape(JSON.parse(JSON.stringify({ zz_type: 'x', zz_data: Array.from({ length: n }, (_, k) => k) })) as object), false);
  assert.equal(keptShapes().shapes, before.shapes);
  assert.equal(keptShapes().chars, before.chars);
  // A record of the usual size still is.
  assert.equal(keepShape(JSON.parse(JSON.stringify({ zz_type: 'x', zz_data: Array.from({ length: 100 }, (_, k) => k) })) as object), true);
});

test('hostile nesting and endless distinct structures stay bounded and never throw', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as object;
  keepShape(deep);
  for (let i = 0; i < 5 * MAX_SHAPES; i++) keepShape({ [`zz_key_${i}`]: i, pad: 'x' });
  const { shapes, chars } = keptShapes();
  assert.ok(shapes <= MAX_SHAPES, `${shapes} shapes`);
  assert.ok(chars <= MAX_CHARS, `${chars} characters`);
});
