// The identifier lines records end with: each identifier listed once per transcript, within a budget, and
// paths under the session's folder written relative to it (the agent works there; half a path's tokens saved).

/** `id` as a record lists it: relative to `cwd` when it lies under it. */
export function relativeTo(cwd: string | undefined, id: string): string {
  return cwd && id.length > cwd.length + 1 && id.startsWith(cwd) && id[cwd.length] === '/' ? id.slice(cwd.length + 1) : id;
}

/** Normalizes a session folder for prefix tests (no trailing slash; '' and '/' mean none). */
export function folderOf(cwd: string | undefined): string | undefined {
  const c = cwd?.replace(/\/+$/, '');
  return c ? c : undefined;
}

export class IdentifierListing {
  private readonly listed = new Set<string>();
  private readonly cwd: string | undefined;

  /** `<cwd>/`, made once (relativize runs for every identifier a snapshot considers). */
  private readonly prefix: string | undefined;

  constructor(cwd: string | undefined) {
    this.cwd = folderOf(cwd);
    this.prefix = this.cwd ? `${this.cwd}/` : undefined;
  }

  has(id: string): boolean {
    return this.listed.has(id);
  }

  /** `id` as a record writes it (relative to the session's folder when under it). */
  written(id: string): string {
    return relativeTo(this.cwd, id);
  }

  /** The identifiers of `ids` that `shown` lacks and no kept record listed yet, within `budgetChars`. */
  pick(ids: Iterable<string>, shown: string, budgetChars: number, pending?: ReadonlySet<string>): string[] {
    const out: string[] = [];
    let budget = budgetChars;
    for (const id of ids) {
      if (this.listed.has(id) || pending?.has(id)) continue;
      const written = relativeTo(this.cwd, id);
      if (shown.includes(written)) continue;
      if (budget - written.length - 2 < 0) break;
      budget -= written.length + 2;
      out.push(id);
    }
    return out;
  }

  /** Marks identifiers listed, once the record that lists them is kept. */
  commit(ids: Iterable<string>): void {
    for (const id of ids) this.listed.add(id);
  }

  /** `text` with every `<cwd>/` prefix dropped (a record's own lines; never the agent's verbatim text). */
  relativize(text: string): string {
    return this.prefix && text.includes(this.prefix) ? text.split(this.prefix).join('') : text;
  }

  /** The line a record ends with ('' when there is nothing to list). */
  line(ids: readonly string[]): string {
    return ids.length ? `[identifiers: ${ids.map((id) => relativeTo(this.cwd, id)).join(', ')}]` : '';
  }
}
