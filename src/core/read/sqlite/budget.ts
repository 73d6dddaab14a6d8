// What one opened database may cost its reader, derived from the bytes on disk: a damaged or hostile file (cells
// that all point at one page, a WAL claiming 2^32−1 pages, looping overflow chains) ends in a partial result and a
// warning instead of gigabytes of rows or allocations.

/** Fewest bytes a table-leaf cell takes on its page (2-byte pointer, size and rowid varints, a 1-byte record). */
const MIN_CELL_BYTES = 5;
/** Slack above the file-derived bounds, so a small legitimate database is never cut short. */
const WORK_SLACK = 64 << 20;
/** How many times each byte on disk a reader may decode: a session read scans some tables twice (list, then fetch). */
const WORK_PER_BYTE = 8;
/** Rows per possible cell: the session list and the session's own read each see a row once, a few tables twice. */
const ROWS_PER_CELL = 4;

export class ReadBudget {
  readonly warnings: string[] = [];
  private work = 0;
  private rows = 0;
  private readonly maxWork: number;
  private readonly maxRows: number;
  private stopped = false;

  /** `bytes`: the database file plus its WAL; `pages`, `pageSize`: what those files can hold. */
  constructor(bytes: number, pages: number, pageSize: number) {
    this.maxWork = WORK_PER_BYTE * bytes + WORK_SLACK;
    this.maxRows = ROWS_PER_CELL * pages * Math.ceil(pageSize / MIN_CELL_BYTES) + 1024;
  }

  /** True once a bound was passed: every scan then stops where it is. */
  get exhausted(): boolean {
    return this.stopped;
  }

  /** Counts `bytes` of decoding; false (and one warning) once the total passes what the files allow. */
  spend(bytes: number): boolean {
    this.work += bytes;
    if (this.work > this.maxWork) this.stop(`stopped reading after ${Math.round(this.maxWork / 1048576)} MB of decoding, more than the database's size allows (damaged?); what was read is used`);
    return !this.stopped;
  }

  /** Counts one row; false (and one warning) past the most rows the files' pages can hold. */
  row(): boolean {
    if (++this.rows > this.maxRows) this.stop(`stopped reading after ${this.maxRows} rows, more than the database's pages can hold (damaged?); what was read is used`);
    return !this.stopped;
  }

  /** A warning, once per text. */
  warn(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  private stop(text: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.warn(text);
  }
}
