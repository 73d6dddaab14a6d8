// Identifier recall counts what the model had: reasoning the agent never sends again (0 tokens) cannot be lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identifierRecall } from '../../../src/core/compact/fidelity';
import type { Block } from '../../../src/core/model/transcript';

const thought = (tokens: number): Block => ({ type: 'reasoning', text: 'check backend/src/Rag/SqliteVectorIndex.cs first', opaqueBytes: 0, ref: { record: 0 }, tokens });

test('dropped reasoning that is never resent does not count against recall; resent reasoning does', () => {
  assert.deepEqual(identifierRecall([thought(0)], []), { recall: 1, total: 0, missing: [] });
  const resent = identifierRecall([thought(12)], []);
  assert.equal(resent.total, 1);
  assert.deepEqual(resent.missing, ['backend/src/Rag/SqliteVectorIndex.cs']);
});
