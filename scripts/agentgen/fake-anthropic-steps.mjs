// Loopback stand-in for the Anthropic Messages API (streaming) that drives a real agent through scripted steps:
// each request gets the next step (thinking, text, a tool call the agent really runs) with plausible usage.
// Used by gen-cline.mjs; a step's `usage` overrides the figures (to push the agent into its own truncation).
import http from 'node:http';
import fs from 'node:fs';
import { sse } from './fake-anthropic-tools.mjs';

/**
 * Starts the fake on 127.0.0.1 (a free port). `steps` is consumed in order; past its end every request gets an
 * `attempt_completion`. `log` (a path) gets one line per request. Returns { url, close, requests }.
 */
export function startStepsFake(steps, log) {
  let n = 0;
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      n++;
      let b = {};
      try { b = JSON.parse(body); } catch { /* logged as is */ }
      requests.push({ url: req.url, body: b });
      if (log) fs.appendFileSync(log, JSON.stringify({ n, url: req.url, bytes: body.length, messages: b.messages?.length ?? 0 }) + '\n');
      if (!req.url.startsWith('/v1/messages')) { res.writeHead(404); res.end('{}'); return; }
      const step = steps.shift() ?? { tool: 'attempt_completion', input: { result: 'Done.' } };
      const approx = Math.ceil(body.length / 3.6);
      const usage = { input: 12, cacheRead: Math.max(0, approx - 1500), cacheWrite: Math.min(approx, 1500), ...(step.usage ?? {}) };
      const blocks = [];
      if (step.thinking) blocks.push({ type: 'thinking', thinking: step.thinking, signature: `sig${n}`.padEnd(120, 'x') });
      if (step.say) blocks.push({ type: 'text', text: step.say });
      if (step.tool) blocks.push({ type: 'tool_use', id: `toolu_gen${String(n).padStart(4, '0')}`, name: step.tool, input: step.input });
      sse(res, `msg_gen${String(n).padStart(4, '0')}`, b.model, blocks, usage);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  })));
}

