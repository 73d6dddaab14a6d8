// The real Kilo CLI 7.7.7 (npm @kilocode/cli-<platform>, a fork of OpenCode), offline against a loopback Messages API,
// imports and continues our compacted session: the original is imported from its `kilo export`, compacted from kilo.db.
import * as path from 'node:path';
import { FIXTURES } from '../support/fixtures';
import { opencodeFamilyResume } from './opencodeFamily';

opencodeFamilyResume({ name: 'kilo', label: 'Kilo CLI', exportFile: path.join(FIXTURES, 'kilo', 'export-7.7.7.json') });
