// Loopback stand-in for the Anthropic Messages API (streaming SSE) that drives a real agent CLI through scripted
// tool calls, so the agent writes a real session. Stateless: the task is named in the latest typed prompt
// ("[task N]") and the step is the number of assistant turns since that prompt.
// Usage: startToolFake({ tasks: [[step, ...], ...], log }) → { url, close(), requests }
import http from 'node:http';

const isToolResultTurn = (m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result');

/** One streamed assistant message (text, thinking with its signature, tool_use blocks) with the given usage. */
export function sse(res, id, model, blocks, usage) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const ev = (t, d) => res.write(`event: ${t}\ndata: ${JSON.stringify(d)}\n\n`);
  ev('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite, output_tokens: 1 } } });
  blocks.forEach((b, i) => {
    if (b.type === 'text') {
      ev('content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text: b.text } });
    } else if (b.type === 'thinking') {
      ev('content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'thinking', thinking: '', signature: '' } });
      ev('content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'thinking_delta', thinking: b.thinking } });
      ev('content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'signature_delta', signature: b.signature } });
    } else {
      ev('content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      ev('content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    ev('content_block_stop', { type: 'content_block_stop', index: i });
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  ev('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 + JSON.stringify(blocks).length / 4 | 0 } });
  ev('message_stop', { type: 'message_stop' });
  res.end();
}

/**
 * Starts the fake on a free loopback port. `tasks[n]` is the list of steps of the prompt tagged "[task n]";
 * `summary(body)`, when given, answers a side request that asks for a summary (the agent's own compaction).
 */
export function startToolFake({ tasks, log, summary }) {
  let n = 0;
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      n++;
      let b = {};
      try { b = JSON.parse(body); } catch { /* answered below */ }
      requests.push({ n, url: req.url, bytes: body.length, body: b });
      log?.({ n, url: req.url, bytes: body.length, messages: b.messages?.length ?? 0 });
      if (!req.url.startsWith('/v1/messages')) { res.writeHead(404, { 'content-type': 'application/json' }); return res.end('{}'); }
      const approx = Math.ceil(body.length / 3.6);
      const usage = { input: 3, cacheRead: Math.max(0, approx - 2000), cacheWrite: Math.min(approx, 2000) };
      const id = `msg_gen${String(n).padStart(5, '0')}`;
      // Side requests (titles, summaries) carry no tools.
      if (!(b.tools?.length)) return sse(res, id, b.model, [{ type: 'text', text: summary && /summar/i.test(body) ? summary(body) : 'Generated session' }], usage);
      const messages = b.messages ?? [];
      let last = messages.length - 1;
      // The prompt is the latest user turn naming a task (agents such as Goose add user text of their own after results).
      const isPrompt = (m) => m.role === 'user' && !isToolResultTurn(m) && /\[task \d+\]/.test(JSON.stringify(m.content));
      while (last >= 0 && !isPrompt(messages[last])) last--;
      const prompt = JSON.stringify(messages[last]?.content ?? '');
      const task = Number(/\[task (\d+)\]/.exec(prompt)?.[1] ?? -1);
      const step = messages.slice(last + 1).filter((m) => m.role === 'assistant').length;
      const s = tasks[task]?.[step] ?? { text: 'Done with this task.' };
      const blocks = [];
      if (s.thinking) blocks.push({ type: 'thinking', thinking: s.thinking, signature: `sig-${n}` });
      if (s.say) blocks.push({ type: 'text', text: s.say });
      if (s.tool) blocks.push({ type: 'tool_use', id: `toolu_gen${String(n).padStart(5, '0')}`, name: s.tool, input: s.input });
      if (s.text) blocks.push({ type: 'text', text: s.text });
      sse(res, id, b.model, blocks, usage);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) });
  }));
}
