#!/usr/bin/env python3
"""HAND-MADE Goose fixtures (Goose 1.x writes no JSONL and no public legacy session was found; real 1.37.0 files come from gen-goose.mjs): a legacy JSONL session
and a sessions.db in the shapes of Goose's source (crates/goose/src/session: legacy.rs, session_manager.rs schema v5,
conversation/message.rs content types, context_mgmt compaction visibility). Usage: make-goose-fixtures.py OUTDIR"""
import json, os, sqlite3, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
T0 = 1764580000  # 2025-12-01, unix seconds as Goose records `created`
VIS = {"userVisible": True, "agentVisible": True}
HIDDEN = {"userVisible": True, "agentVisible": False}
AGENT_ONLY = {"userVisible": False, "agentVisible": True}

log = "\n".join(f"2025-11-30T10:{i // 60:02d}:{i % 60:02d}Z {'WARN' if i % 7 == 3 else 'INFO'} cart request={1000 + i} coupon={'SAVE10' if i % 5 == 0 else 'none'} total={i * 3.7:.2f}" for i in range(400))
source = "\n".join(f"export function rule{i}(input: string): string {{ return input.replace(/x{i}/g, 'y{i}'); }}" for i in range(120))

def msg(role, t, content, meta=VIS):
    return {"role": role, "created": T0 + t, "content": content, "metadata": meta}

def text(s):
    return {"type": "text", "text": s}

def call(cid, name, args):
    return {"type": "toolRequest", "id": cid, "toolCall": {"status": "success", "value": {"name": name, "arguments": args}}}

def result(cid, s, error=False):
    if error:
        return {"type": "toolResponse", "id": cid, "toolResult": {"status": "error", "error": f"Execution failed: {s}"}}
    return {"type": "toolResponse", "id": cid, "toolResult": {"status": "success", "value": {"content": [{"type": "text", "text": s}], "isError": False}}}

def conversation(prefix):
    return [
        msg("user", 0, [text("The cart total is wrong when a coupon applies twice. Look at the service log first.")]),
        msg("assistant", 5, [{"type": "thinking", "thinking": "Read the log, then the rules.", "signature": "c2lnLWdvb3NlLTE="}, text("Reading the log."), call(f"{prefix}_1", "developer__shell", {"command": "cat logs/server.log"})]),
        msg("user", 9, [result(f"{prefix}_1", log)]),
        msg("assistant", 14, [call(f"{prefix}_2", "developer__text_editor", {"command": "view", "path": "/w/shop/src/rules.ts"})]),
        msg("user", 15, [result(f"{prefix}_2", source)]),
        msg("assistant", 20, [call(f"{prefix}_3", "developer__shell", {"command": "npm test -- cart"})]),
        msg("user", 30, [result(f"{prefix}_3", "npm ERR! missing script: test", error=True)]),
        msg("assistant", 35, [text("The coupon SAVE10 is applied in rule3 and again in rule7; the test script is missing.")]),
        msg("user", 60, [text("Fix rule7 so the coupon applies once, then show the diff.")]),
        msg("assistant", 65, [call(f"{prefix}_4", "developer__text_editor", {"command": "str_replace", "path": "/w/shop/src/rules.ts", "old_str": "y7", "new_str": "z7"})]),
        msg("user", 66, [result(f"{prefix}_4", "The file /w/shop/src/rules.ts has been edited.")]),
        msg("assistant", 70, [call(f"{prefix}_5", "developer__shell", {"command": "git diff --stat"})]),
        msg("user", 72, [result(f"{prefix}_5", " src/rules.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)")]),
        msg("assistant", 75, [text("Done: rule7 no longer re-applies SAVE10 (src/rules.ts, one line).")]),
    ]

# Legacy JSONL: line 1 SessionMetadata (snake_case), then one Message a line.
legacy = conversation("toolu_legacy")
meta = {"working_dir": "/w/shop", "description": "Coupon applied twice", "schedule_id": None, "message_count": len(legacy),
        "total_tokens": 23410, "input_tokens": 23120, "output_tokens": 290, "accumulated_total_tokens": 141200,
        "accumulated_input_tokens": 139800, "accumulated_output_tokens": 1400}
with open(os.path.join(out, "20251201_101500-handmade.jsonl"), "w") as f:
    f.write(json.dumps(meta, separators=(",", ":")) + "\n")
    for m in legacy:
        f.write(json.dumps(m, separators=(",", ":")) + "\n")

# sessions.db, schema v5 as SessionStorage::create makes it; session 2 was compacted by Goose: old messages hidden
# from the agent, an agent-only summary, then the conversation continues.
db_path = os.path.join(out, "sessions.db")
if os.path.exists(db_path):
    os.remove(db_path)
db = sqlite3.connect(db_path)
db.executescript("""
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (5);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
  session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER,
  accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL,
  created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_messages_timestamp ON messages(timestamp);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX idx_sessions_type ON sessions(session_type);
""")
def add_session(sid, name, updated, conv, usage):
    db.execute("INSERT INTO sessions (id, name, working_dir, created_at, updated_at, extension_data, total_tokens, input_tokens, output_tokens, "
               "accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               (sid, name, "/w/shop", "2025-12-01 10:00:00", updated, "{}", *usage))
    for m in conv:
        db.execute("INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES (?,?,?,?,?)",
                   (sid, m["role"], json.dumps(m["content"]), m["created"], json.dumps(m["metadata"])))

add_session("20251201_1", "Coupon applied twice", "2025-12-01 10:20:00", conversation("toolu_db1"), (23410, 23120, 290, 141200, 139800, 1400))
compacted = [dict(m, metadata=HIDDEN) for m in conversation("toolu_db2")]
compacted += [
    msg("user", 100, [text("Summary of the conversation so far: the coupon SAVE10 was applied by rule3 and rule7; rule7 was fixed in src/rules.ts; npm has no test script.")], AGENT_ONLY),
    msg("assistant", 101, [text("Your context was compacted. I'll continue from the summary.")], AGENT_ONLY),
    msg("user", 120, [text("Now add a test script to package.json.")]),
    msg("assistant", 125, [call("toolu_db2_6", "developer__text_editor", {"command": "view", "path": "/w/shop/package.json"})]),
    msg("user", 126, [result("toolu_db2_6", '{\n  "name": "shop",\n  "scripts": {}\n}')]),
    msg("assistant", 130, [text("package.json has no scripts yet; I'll add \"test\": \"node --test\".")]),
]
add_session("20251202_1", "Coupon follow-up", "2025-12-02 09:00:00", compacted, (4100, 3900, 200, 160000, 157000, 3000))
db.commit()
db.close()
print(f"wrote {out}")
