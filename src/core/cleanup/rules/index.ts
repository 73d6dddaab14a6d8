// Every cleanup rule, in the order the engine applies them.
import type { CleanupRule, RuleId } from '../types';
import { collapseNoise } from './collapseNoise';
import { dedupeFileReads } from './dedupeFileReads';
import { dropReasoning } from './dropReasoning';
import { mediaPlaceholder } from './mediaPlaceholder';
import { oldContext } from './oldContext';
import { stateSnapshot } from './stateSnapshot';
import { toolRecords } from './toolRecords';
import { trimOldPrompts } from './trimOldPrompts';
import { trimOldReplies } from './trimOldReplies';
import { truncateGiantResults } from './truncateGiantResults';

// The snapshot goes first: the rules after it work only on the turns it leaves.
export const RULES: readonly CleanupRule[] = [stateSnapshot, collapseNoise, dropReasoning, mediaPlaceholder, dedupeFileReads, toolRecords, truncateGiantResults, trimOldReplies, oldContext, trimOldPrompts];

const LABELS = new Map<string, string>(RULES.map((r) => [r.id, r.label]));

/** The human name of a rule (its id when unknown, as in a report from another version). */
export const ruleLabel = (id: RuleId): string => LABELS.get(id) ?? id;
