#!/usr/bin/env python3
"""HAND-MADE Crush fixture in the schema of Crush's current source (charmbracelet/crush internal/db/migrations, every
"+goose Up" section in order, copied below; message parts as internal/message/message.go marshals them): the Crush
CLI installs by downloading from GitHub, which this project's machines cannot reach, and the real public crush.db in
test/fixtures/crush/chex-mix-timer predates is_summary_message. One project database with a session that Crush
compacted (sessions.summary_message_id names the summary message; what came before is no longer sent), an older
session, and a sub-agent session (parent_session_id). Usage: make-crush-fixture.py OUTDIR (writes OUTDIR/.crush/crush.db)"""
import json, os, sqlite3, sys

SCHEMA = r"""
-- Sessions
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    created_at INTEGER NOT NULL   -- Unix timestamp in milliseconds
);

CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at
AFTER UPDATE ON sessions
BEGIN
UPDATE sessions SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

-- Files
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);

CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);

CREATE TRIGGER IF NOT EXISTS update_files_updated_at
AFTER UPDATE ON files
BEGIN
UPDATE files SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

-- Messages
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    finished_at INTEGER,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);

CREATE TRIGGER IF NOT EXISTS update_messages_updated_at
AFTER UPDATE ON messages
BEGIN
UPDATE messages SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;

CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count - 1
WHERE id = old.session_id;
END;


ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;

-- Add indexes on created_at columns for better ORDER BY performance
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at);

-- Add provider column to messages table
ALTER TABLE messages ADD COLUMN provider TEXT;

ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;

ALTER TABLE sessions ADD COLUMN todos TEXT;

CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,  -- Unix timestamp in seconds when file was last read
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);

CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id);
CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path);

"""

out = os.path.join(sys.argv[1], ".crush")
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "crush.db")
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
db.executescript(SCHEMA)
T0 = 1796540000  # 2026-12-06, Unix seconds as Crush's strftime('%s') writes them
log = "\n".join(f"2026-12-05T10:{i // 60:02d}:{i % 60:02d}Z {'WARN' if i % 7 == 3 else 'INFO'} cart request={1000 + i} total={i * 3.7:.2f}" for i in range(300))

def parts(*ps):
    return json.dumps([{"type": t, "data": d} for t, d in ps])

def text(s): return ("text", {"text": s})
def finish(reason="stop"): return ("finish", {"reason": reason, "time": T0})
def call(cid, name, inp): return ("tool_call", {"id": cid, "name": name, "input": json.dumps(inp), "provider_executed": False, "finished": True})
def result(cid, name, content, error=False): return ("tool_result", {"tool_call_id": cid, "name": name, "content": content, "data": "", "mime_type": "", "metadata": "", "is_error": error})
def reasoning(s): return ("reasoning", {"thinking": s, "signature": "sig-abc", "thought_signature": "", "tool_id": "", "responses_data": None})

def session(sid, title, prompt, completion, cost, t, parent=None, summary=None):
    db.execute("INSERT INTO sessions (id, parent_session_id, title, prompt_tokens, completion_tokens, cost, updated_at, created_at, summary_message_id) VALUES (?,?,?,?,?,?,?,?,?)",
               (sid, parent, title, prompt, completion, cost, T0 + t + 500, T0 + t, summary))

n = [0]
def message(sid, role, p, t, model=None, summary=False):
    n[0] += 1
    mid = f"m{n[0]:03d}-0000-4000-8000-000000000000"
    db.execute("INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message, created_at, updated_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
               (mid, sid, role, p, model, "anthropic" if model else None, 1 if summary else 0, T0 + t, T0 + t, T0 + t))
    return mid

M = "claude-sonnet-4-5-20250929"
OLD = "0a1b2c3d-0000-4000-8000-000000000001"
MAIN = "0a1b2c3d-0000-4000-8000-000000000002"
SUB = "0a1b2c3d-0000-4000-8000-000000000003"
session(OLD, "Old question", 900, 40, 0.004, 0)
message(OLD, "user", parts(text("What is in the logs folder?")), 10)
message(OLD, "assistant", parts(text("Only server.log."), finish()), 11, M)

session(MAIN, "Fix the coupon total", 48210, 512, 0.4213, 1000, summary=None)
message(MAIN, "user", parts(text("The cart total is wrong when a coupon applies twice. Look at the log first.")), 1010)
message(MAIN, "assistant", parts(reasoning("Read the log, then the cart code."), call("call_1", "bash", {"command": "cat logs/server.log"}), finish("tool_use")), 1011, M)
message(MAIN, "tool", parts(result("call_1", "bash", log)), 1012)
message(MAIN, "assistant", parts(text("The log shows SAVE10 applied twice on request 1005."), finish()), 1013, M)
summary = message(MAIN, "assistant", parts(text("Summary of the session so far: the coupon SAVE10 is applied twice (request 1005); next, fix applyCoupon in src/cart.ts."), finish()), 1100, M, summary=True)
message(MAIN, "user", parts(text("Now fix applyCoupon.")), 1110)
message(MAIN, "assistant", parts(call("call_2", "view", {"file_path": "src/cart.ts"}), call("call_3", "agent", {"prompt": "find other callers of applyCoupon"}), finish("tool_use")), 1111, M)
message(MAIN, "tool", parts(result("call_2", "view", "<file>\n     1|export function applyCoupon(total: number) { return total * 0.9 * 0.9; }\n</file>"), result("call_3", "agent", "Only src/checkout.ts calls it.")), 1112)
message(MAIN, "assistant", parts(call("call_4", "edit", {"file_path": "src/cart.ts", "old_string": "total * 0.9 * 0.9", "new_string": "total * 0.9"}), finish("tool_use")), 1113, M)
message(MAIN, "tool", parts(result("call_4", "edit", "<result>\nfile not found: src/cart.ts\n</result>", error=True)), 1114)
message(MAIN, "assistant", parts(text("The edit failed: src/cart.ts is missing in this checkout."), finish()), 1115, M)
db.execute("UPDATE sessions SET summary_message_id = ? WHERE id = ?", (summary, MAIN))

session(SUB, "find other callers of applyCoupon", 3000, 80, 0.01, 1111, parent=MAIN)
message(SUB, "user", parts(text("find other callers of applyCoupon")), 1111)
message(SUB, "assistant", parts(text("Only src/checkout.ts calls it."), finish()), 1112, M)
db.commit()
db.execute("PRAGMA journal_mode=DELETE")
db.close()
print(path)
