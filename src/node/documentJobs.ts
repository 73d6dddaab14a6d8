// What the document thread does (documentWorker.ts runs these; documentThread.ts runs them here when there is no
// worker): read a document session whole, its usage state, or the sessions a store lists. All synchronous.
import { agentModule, type AgentId } from '../core/formats/registry';
import type { Session } from '../core/model/transcript';
import { stateFromSession } from '../core/usage/rows';
import type { FileState } from '../core/usage/types';
import { type DocumentMatch, documentSession, documentStamp, nodeFs, readDocumentSession } from './documentSessions';

/** A job for the document thread. Paths are the ones the caller matched; the worker matches them again (cheap). */
export type DocumentJob =
  | { readonly op: 'session'; readonly path: string; readonly keepRaw?: boolean }
  | { readonly op: 'usage'; readonly path: string }
  | { readonly op: 'list'; readonly agent: AgentId; readonly root: string };

/** What each job gives back (structured-cloned across threads: plain data, Maps and arrays only). */
export interface DocumentAnswers {
  session: { session: Session; bytes: number };
  usage: FileState;
  list: string[];
}

export type AnswerOf<J extends DocumentJob> = DocumentAnswers[J['op']];

function matchOf(path: string): DocumentMatch {
  const doc = documentSession(path, nodeFs);
  if (!doc) throw new Error(`${path} is no longer a session`);
  return doc;
}

/** A document session read whole and its usage state (the usage scan's view of it). */
export function documentUsage(doc: DocumentMatch, path: string): FileState {
  const usage = agentModule(doc.agent).usage;
  const session = readDocumentSession(doc, { keepRaw: false, path });
  return (usage.kind === 'from-session' && usage.state ? usage.state : stateFromSession)(session);
}

/** Runs one job on the calling thread; throws an Error with a one-line message. */
export function runDocumentJob<J extends DocumentJob>(job: J): AnswerOf<J> {
  switch (job.op) {
    case 'session': {
      const doc = matchOf(job.path);
      const keepRaw = job.keepRaw ?? false;
      const session = readDocumentSession(doc, { keepRaw, path: job.path });
      // Read for viewing: without the writer's data (Session.extra: a Cline task's two files again as objects, a Goose
      // session's whole conversation), which is most of what would cross threads and be rebuilt on the host's.
      return { session: keepRaw ? session : { ...session, extra: {} }, bytes: documentStamp(doc.files).size } as AnswerOf<J>;
    }
    case 'usage':
      return documentUsage(matchOf(job.path), job.path) as AnswerOf<J>;
    case 'list': {
      const reading = agentModule(job.agent).reading;
      return (reading.kind === 'document' ? reading.sessionsUnder(job.root, nodeFs) : []) as AnswerOf<J>;
    }
  }
  throw new Error('unknown document job');
}
