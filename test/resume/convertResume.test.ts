// compact --to: every target the CLI offers (Claude Code, Codex, Gemini CLI natively; OpenCode and Goose by their
// import), each from a real Claude Code, Codex and Gemini CLI session, resumed by the real target CLI.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { agentModule } from '../../src/core/formats/registry';
import { AGENT_IDS } from '../../src/core/model/ids';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, GEMINI_SAMPLE } from '../support/fixtures';
import { convertSuite, TARGETS, type Target } from './convertSuite';

const only = process.env.CONVERT_ONLY; // e.g. "claude>codex": one direction while debugging
const sources = [[CLAUDE_SAMPLE, 'claude', 'Claude Code'], [CODEX_SAMPLE, 'codex', 'Codex'], [GEMINI_SAMPLE, 'gemini', 'Gemini CLI']] as const;
// The targets as the CLI's --to knows them: a new target without a resume proof here fails the test below.
const offered = AGENT_IDS.filter((id) => agentModule(id).fromConversation !== undefined).map((id) => agentModule(id).shortName);

it('every target compact --to offers has a real-CLI resume proof here', () => {
  assert.deepEqual(offered.filter((t) => !(t in TARGETS)), []);
});
for (const [file, from, label] of sources) {
  for (const to of offered as Target[]) if (to !== from && (!only || only === `${from}>${to}`)) convertSuite(file, to, label);
}
