// Column names from the CREATE TABLE / CREATE INDEX statements SQLite keeps in sqlite_schema (it rewrites them on
// ALTER TABLE, so they always list the current columns).

/** Strips SQL quoting from an identifier: "x", `x`, [x] or 'x'. */
export function unquote(id: string): string {
  const t = id.trim();
  const first = t[0];
  if ((first === '"' || first === '`' || first === "'") && t.endsWith(first)) return t.slice(1, -1).split(first + first).join(first);
  if (first === '[' && t.endsWith(']')) return t.slice(1, -1);
  return t;
}

/** Splits `s` at top-level commas (outside parentheses and quotes). */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === '`' || c === "'" ) quote = c;
    else if (c === '[') quote = ']';
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { out.push(s.slice(start, i)); start = i + 1; }
  }
  out.push(s.slice(start));
  return out;
}

/** The text between the first '(' and its matching ')'. */
function parenthesized(sql: string): string | undefined {
  const open = sql.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  let quote = '';
  for (let i = open; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === '`' || c === "'") quote = c;
    else if (c === '[') quote = ']';
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return sql.slice(open + 1, i);
  }
  return undefined;
}

/** The first token of a column definition: its (unquoted) name. */
function leadingName(def: string): string {
  const t = def.trim();
  const m = /^("(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|'(?:[^']|'')*'|\S+)/.exec(t);
  return unquote(m ? m[1]! : t);
}

const CONSTRAINT = /^(CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i;

export interface TableColumns {
  readonly columns: string[];
  /** The column that is an alias of the rowid (`INTEGER PRIMARY KEY`): stored as NULL, its value is the rowid. */
  readonly rowidColumn?: number;
  readonly withoutRowid: boolean;
  /**
   * The column SQLite's one automatic index (`sqlite_autoindex_<table>_1`, no SQL of its own) keys: set only when a
   * single column carries the table's one PRIMARY KEY or UNIQUE constraint (then that index is unambiguous).
   */
  readonly autoIndexColumn?: string;
}

/** Columns of a CREATE TABLE statement; undefined when it cannot be read (a virtual table, say). */
export function tableColumns(sql: string): TableColumns | undefined {
  const body = parenthesized(sql);
  if (body === undefined) return undefined;
  const columns: string[] = [];
  let rowidColumn: number | undefined;
  let unique: string[] = [];  // columns with an inline PRIMARY KEY / UNIQUE (INTEGER PRIMARY KEY is the rowid)
  let tableConstraint = false;
  for (const def of splitTopLevel(body)) {
    if (!def.trim()) continue;
    // A table constraint making an index of its own (a FOREIGN KEY or CHECK makes none) leaves the numbering unknown.
    if (CONSTRAINT.test(def.trim())) { tableConstraint ||= /\b(PRIMARY\s+KEY|UNIQUE)\b/i.test(def); continue; }
    if (/^\S+\s+INTEGER\s+PRIMARY\s+KEY\b/i.test(def.trim()) && !/\bDESC\b/i.test(def)) rowidColumn = columns.length;
    else if (/\b(PRIMARY\s+KEY|UNIQUE)\b/i.test(def.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, ''))) unique.push(leadingName(def));
    columns.push(leadingName(def));
  }
  const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql);
  if (tableConstraint || withoutRowid || unique.length !== 1) unique = [];
  return { columns, rowidColumn, withoutRowid, ...(unique[0] === undefined ? {} : { autoIndexColumn: unique[0] }) };
}

/** Indexed columns of a CREATE INDEX statement, in key order (expressions come back as their text). */
export function indexColumns(sql: string): string[] {
  const body = parenthesized(sql.slice(sql.search(/\bON\b/i)));
  if (body === undefined) return [];
  return splitTopLevel(body).map((c) => leadingName(c.replace(/\s+(COLLATE\s+\S+|ASC|DESC)\s*$/gi, '')));
}
