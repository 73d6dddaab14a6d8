// Every cleanup rule, in the order the engine applies them.
import type { CleanupRule } from '../types';
import { collapseNoise } from './collapseNoise';
import { dedupeFileReads } from './dedupeFileReads';
import { dropReasoning } from './dropReasoning';
import { mediaPlaceholder } from './mediaPlaceholder';
import { oldContext } from './oldContext';
import { toolRecords } from './toolRecords';
import { trimOldPrompts } from './trimOldPrompts';
import { trimOldReplies } from './trimOldReplies';
import { truncateGiantResults } from './truncateGiantResults';

export const RULES: readonly CleanupRule[] = [collapseNoise, dropReasoning, mediaPlaceholder, dedupeFileReads, toolRecords, truncateGiantResults, trimOldReplies, oldContext, trimOldPrompts];
