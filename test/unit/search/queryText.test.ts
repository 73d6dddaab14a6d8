// The search box's one line: agent:/project:/since: prefixes anywhere, quoted values, and what cannot be used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTypedQuery } from '../../../src/core/search/queryText';
import { parseSince } from '../../../src/core/search/since';
import { AGENT_NAMES } from '../../../src/node/search/searchPicks';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const parse = (typed: string) => parseTypedQuery(typed, AGENT_NAMES, NOW);

test('prefixes anywhere are taken out; the rest, spaces collapsed, is the query', () => {
  assert.deepEqual(parse('agent:codex  fix the   login project:api'), { text: 'fix the login', agent: 'codex', project: 'api', problems: [] });
  assert.deepEqual(parse('since:7d npm workspace'), { text: 'npm workspace', since: NOW - 7 * 86_400_000, problems: [] });
  assert.deepEqual(parse('since:2026-12-01 x'), { text: 'x', since: Date.parse('2026-12-01'), problems: [] });
  assert.deepEqual(parse('no filters here'), { text: 'no filters here', problems: [] });
});

test('an agent by id, label or a unique start, any case; a quoted project with spaces', () => {
  assert.equal(parse('agent:Claude-Code x').agent, 'claude-code');
  assert.equal(parse('agent:"Gemini CLI" x').agent, 'gemini-cli');
  assert.equal(parse('AGENT:gem x').agent, 'gemini-cli');
  assert.deepEqual(parse('project:"my repo" deploy'), { text: 'deploy', project: 'my repo', problems: [] });
});

test('a prefix being typed (no value yet) is not searched for; a word containing a colon elsewhere stays', () => {
  assert.deepEqual(parse('timeout agent:'), { text: 'timeout', problems: [] });
  assert.deepEqual(parse('http://localhost:8080'), { text: 'http://localhost:8080', problems: [] });
  assert.deepEqual(parse('preagent:codex'), { text: 'preagent:codex', problems: [] });
});

test('an unknown agent or a since that is no date is a one-line problem, not a silent filter', () => {
  const r = parse('agent:nobody since:yesterday x');
  assert.equal(r.text, 'x');
  assert.equal(r.agent, undefined);
  assert.equal(r.since, undefined);
  assert.equal(r.problems.length, 2);
  assert.match(r.problems[0]!, /^agent:nobody is no agent \(one of claude-code, codex/);
  assert.match(r.problems[1]!, /^since:yesterday needs a date/);
});

test('parseSince: ages in hours, days and weeks; dates; anything else undefined', () => {
  assert.equal(parseSince('12h', NOW), NOW - 12 * 3_600_000);
  assert.equal(parseSince('2w', NOW), NOW - 14 * 86_400_000);
  assert.equal(parseSince('2026-13-45', NOW), undefined);
  assert.equal(parseSince('7', NOW), undefined);
});
