// Loopback stand-in for OpenAI's Chat Completions API (streaming SSE or JSON) that drives a real agent CLI (Qwen Code)
// through a scripted session: each request with tools gets the next step of SCENARIO.json (a tool call the agent then
// really runs, or a text answer); requests without tools (titles, side questions) get a short text.
// Usage: node fake-openai-chat.mjs PORT SCENARIO.json REQUEST_LOG
//   SCENARIO.json: { "steps": [ { "tool": "run_shell_command", "args": { "command": "ls" } } | { "text": "…" } ],
//                    "compression": "<state_snapshot>…</state_snapshot>" } (optional: the answer to the agent's own
//                    compaction request)
//   REQUEST_LOG gets one JSON line per request with its whole body.
import fs from 'node:fs';
import http from 'node:http';

const [port, scenarioPath, logPath] = process.argv.slice(2);
const { steps, compression } = JSON.parse(fs.readFileSync(scenarioPath, 'utf8'));
let step = 0;
let n = 0;

http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    n++;
    let b = {};
    try { b = JSON.parse(body); } catch { /* logged as is */ }
    if (logPath) fs.appendFileSync(logPath, JSON.stringify({ n, url: req.url, body: b }) + '\n');
    if (!req.url.endsWith('/chat/completions')) { res.writeHead(404, { 'content-type': 'application/json' }); return res.end('{"error":{"message":"no route"}}'); }
    const side = !(b.tools?.length);
    // The agent's own compaction: Qwen Code's is a side request asking for a <state_snapshot>, Copilot CLI's a turn
    // whose last message asks for a summary of the conversation.
    const asksSummary = compression && (side ? body.includes('state_snapshot') : /summary of the conversation/i.test(JSON.stringify(b.messages?.at(-1) ?? '')));
    const s = asksSummary ? { text: compression } : side ? { text: 'Session title' } : steps[step++] ?? { text: 'Done with this task.' };
    const prompt = Math.ceil(body.length / 4);
    const usage = { prompt_tokens: prompt, completion_tokens: 30, total_tokens: prompt + 30, prompt_tokens_details: { cached_tokens: Math.max(0, prompt - 1500) } };
    const call = s.tool ? { index: 0, id: `call_gen${String(n).padStart(4, '0')}`, type: 'function', function: { name: s.tool, arguments: JSON.stringify(s.args ?? {}) } } : undefined;
    const base = { id: `chatcmpl-gen${n}`, created: 1_765_000_000 + n, model: b.model ?? 'fake-model' };
    if (!b.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ...base, object: 'chat.completion', usage, choices: [{ index: 0, finish_reason: call ? 'tool_calls' : 'stop', message: { role: 'assistant', content: s.text ?? null, ...(call ? { tool_calls: [call] } : {}) } }] }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish, extra = {}) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
    chunk({ role: 'assistant', content: '' }, null);
    if (s.text) chunk({ content: s.text }, null);
    if (call) chunk({ tool_calls: [call] }, null);
    chunk({}, call ? 'tool_calls' : 'stop');
    res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
}).listen(Number(port), '127.0.0.1');
