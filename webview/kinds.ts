// Labels for token kinds; their colours are the `.kind-*` classes in media/composition.css.
import type { TokenKind } from '../src/core/model/transcript';

export const KIND_LABEL = {
  system: 'System & instructions',
  user: 'User prompts',
  assistant: 'Assistant text',
  reasoning: 'Reasoning',
  tool_call: 'Tool calls',
  tool_result: 'Tool results',
  media: 'Images & media',
  summary: 'Summaries',
} as const satisfies Record<TokenKind, string>;

export const kindClass = (kind: TokenKind): string => `kind-${kind.replace('_', '-')}`;
