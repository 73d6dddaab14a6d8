// A session's title as the name of a virtual document (its editor tab): one line, no path separators, short.
import { visibleFormat } from './terminal';

/**
 * The tab shows the document's file name: a UUID names nothing to a person, so documents about a session are named
 * by its title. Separators would turn the title into folders; control characters and long prompts would not fit.
 */
export function tabName(title: string, max = 60): string {
  const clean = visibleFormat(title).replace(/[\\/\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (clean === '') return 'session';
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}
