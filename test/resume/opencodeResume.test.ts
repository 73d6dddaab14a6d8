// The real OpenCode CLI (npm opencode-ai), offline against a loopback Messages API, imports and continues our
// compacted session: the original is imported from its `opencode export`, compacted from OpenCode's own opencode.db.
import * as path from 'node:path';
import { FIXTURES } from '../support/fixtures';
import { opencodeFamilyResume } from './opencodeFamily';

opencodeFamilyResume({ name: 'opencode', label: 'OpenCode', exportFile: path.join(FIXTURES, 'opencode', 'export-1.18.33.json') });
