// Loopback fake of the streaming OpenAI Responses API as the real Codex CLI calls it: the product's resume-check
// server (src/node/resume/loopbackModels.ts), re-exported under the tests' names.
import { LOOPBACK_ANSWER, startLoopbackResponses } from '../../src/node/resume/loopbackModels';
import { ok, type FakeServer } from './fakeHttp.js';

/** What the fake model answers: plain text, no tool call, so a resumed Codex turn ends after one request. */
export const CODEX_FAKE_ANSWER = LOOPBACK_ANSWER;

/** Starts the fake under /v1; a request whose credential is not `Bearer <apiKey>` gets a 401. */
export async function startFakeCodexResponses(apiKey: string): Promise<FakeServer> {
  const server = await startLoopbackResponses(apiKey);
  return { ...server, url: server.url, requests: server.requests, close: server.close, fallback: ok, script: () => { throw new Error('the Codex fake takes no scripted faults'); } };
}
