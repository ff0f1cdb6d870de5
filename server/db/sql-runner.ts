import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from './client.ts';

/**
 * Raw SQL for the hot paths of the application list and export. Drizzle stays the interface for
 * ordinary reads and writes; these paths need what it does not offer: PGlite's COPY ... TO
 * '/dev/blob', which hands back tens of thousands of rows as one buffer instead of one JavaScript
 * object per row (10-20x faster on WASM, where row decoding dominates).
 */

/** A bound value. Arrays travel as PostgreSQL array text (see `pgArray`) with an explicit cast. */
export type SqlParam = string | number | null;

export interface IdChunk {
  ids: number[];
  /** The sort key of the last row as text, to seek from (keyset pagination). */
  lastKey: string | null;
  /** The data version the rows were read at (third selected column), if any row came back. */
  version: number | null;
}

export interface TextRowBatch {
  length: number;
  row(index: number): (string | null)[];
}

const batchOf = (rows: (string | null)[][]): TextRowBatch => ({ length: rows.length, row: (index) => rows[index] ?? [] });

export interface SqlRunner {
  kind: 'pglite' | 'postgres';
  /** Rows as arrays of text: callers cast every selected expression to text. */
  textRows(text: string, params: readonly SqlParam[]): Promise<(string | null)[][]>;
  /**
   * The same for a statement run on every request: prepared once per connection under `name`, so
   * it is planned once instead of on every call (planning weighs on a table with many indexes).
   */
  preparedTextRows(name: string, text: string, params: readonly SqlParam[]): Promise<(string | null)[][]>;
  /**
   * The same for statements built per request whose text repeats (a list's filters and sort give
   * its text; the values vary): each distinct text is prepared on first use under a name of its
   * own, up to `maxPreparedTexts` of them, then later texts run unprepared. On PGlite, parsing and
   * planning was most of the time of such a statement (issue 33). A text that cannot be prepared
   * (a parameter of no inferable type) runs unprepared.
   */
  textRowsByText(text: string, params: readonly SqlParam[]): Promise<(string | null)[][]>;
  /** `select id, key::text, version::text ...`: the ids in order, the last key and the version. */
  idChunk(text: string, params: readonly SqlParam[]): Promise<IdChunk>;
  /** `select id ...` (one bigint column): every id, in the order of the rows. */
  idList(text: string, params: readonly SqlParam[]): Promise<Float64Array>;
  /**
   * Many text rows at once (export batches): COPY on PGlite, a plain query on PostgreSQL. Rows are
   * decoded one at a time on demand, so a batch's per-row garbage dies young.
   */
  bulkTextRows(text: string, params: readonly SqlParam[]): Promise<TextRowBatch>;
  /**
   * The rows as COPY text format, as the database wrote them (one line per row, fields separated by
   * tabs; tab, CR, LF and backslash escaped): for rows that go out as text again (the export), so no
   * row or field is ever a JavaScript value of its own. PGlite's COPY to '/dev/blob', PostgreSQL's
   * COPY TO STDOUT.
   */
  copyText(text: string, params: readonly SqlParam[]): Promise<Uint8Array>;
}

interface PgliteClient {
  query(
    text: string,
    params?: unknown[],
    options?: { rowMode?: 'array' | 'object' },
  ): Promise<{ rows: unknown[]; blob?: Blob }>;
  exec(text: string, options?: { rowMode?: 'array' | 'object' }): Promise<{ rows: unknown[] }[]>;
  dumpDataDir: unknown;
}

interface PgPool {
  query(config: { name?: string; text: string; values?: unknown[]; rowMode: 'array' }): Promise<{ rows: unknown[] }>;
  connect(): Promise<PoolClient>;
  totalCount: number;
}

const isPglite = (client: unknown): client is PgliteClient =>
  typeof client === 'object' && client !== null && 'dumpDataDir' in client && 'query' in client && 'exec' in client;
const isPgPool = (client: unknown): client is PgPool =>
  typeof client === 'object' && client !== null && 'totalCount' in client && 'query' in client;

/** SQL string literal; with standard_conforming_strings (the default) doubling quotes is complete. */
export function quoteLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('Text values cannot contain NUL.');
  return `'${value.replaceAll("'", "''")}'`;
}

/** PostgreSQL array text for a list of strings: `{"a","b \"c\""}`. */
export const pgArray = (values: readonly string[]): string =>
  `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;

/**
 * Puts the parameters into the text, for COPY (which takes none). Every `$n` of our statements is a
 * placeholder: none of them holds a dollar sign in a literal or a dollar-quoted body.
 */
export function inlineParams(text: string, params: readonly SqlParam[]): string {
  return text.replace(/\$(\d+)/g, (_match, index: string) => {
    const value = params[Number(index) - 1];
    if (value === undefined) throw new Error(`Missing SQL parameter $${index}.`);
    if (value === null) return 'NULL';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error('Numbers must be finite.');
      return String(value);
    }
    return quoteLiteral(value);
  });
}

const asTextRow = (row: unknown): (string | null)[] =>
  Array.isArray(row) ? row.map((cell) => (cell === null || cell === undefined ? null : String(cell))) : [];

/** Reads COPY ... (FORMAT binary) of (bigint, text, text) rows: ids, the last key and the first version. */
export function parseIdChunk(buffer: ArrayBuffer): IdChunk {
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  // 11-byte signature, flags, then a header extension of the given length.
  let offset = 11 + 4;
  offset += 4 + view.getInt32(offset);
  const ids: number[] = [];
  let lastKeyStart = -1;
  let lastKeyLength = -1;
  let version: number | null = null;
  const decoder = new TextDecoder();
  while (offset < buffer.byteLength) {
    const fields = view.getInt16(offset);
    offset += 2;
    if (fields === -1) break;
    for (let field = 0; field < fields; field++) {
      const length = view.getInt32(offset);
      offset += 4;
      if (length < 0) {
        if (field === 1) lastKeyLength = -1;
        continue;
      }
      if (field === 0) ids.push(Number(view.getBigInt64(offset)));
      else if (field === 1) {
        lastKeyStart = offset;
        lastKeyLength = length;
      } else if (field === 2 && version === null) {
        version = Number(decoder.decode(bytes.subarray(offset, offset + length)));
      }
      offset += length;
    }
  }
  const lastKey = ids.length > 0 && lastKeyLength >= 0 ? decoder.decode(bytes.subarray(lastKeyStart, lastKeyStart + lastKeyLength)) : null;
  return { ids, lastKey, version };
}

/**
 * Reads COPY ... (FORMAT binary) of one bigint column: after the header, each row is a field count
 * (2 bytes), a length (4) and the value (8). Ids are below 2^53, so two 32-bit halves make them
 * exactly, without a BigInt per row.
 */
export function parseIdList(buffer: ArrayBuffer): Float64Array {
  const view = new DataView(buffer);
  let offset = 11 + 4;
  offset += 4 + view.getInt32(offset);
  const ids = new Float64Array(Math.max(0, Math.floor((buffer.byteLength - offset) / 14)));
  let count = 0;
  while (offset + 2 <= buffer.byteLength && view.getInt16(offset) !== -1) {
    ids[count++] = view.getInt32(offset + 6) * 4294967296 + view.getUint32(offset + 10);
    offset += 14;
  }
  return ids.subarray(0, count);
}

const textEscapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** One field of COPY text format: `\N` is NULL, backslash escapes undone. */
export function unescapeCopyText(field: string): string | null {
  if (field === '\\N') return null;
  if (!field.includes('\\')) return field;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_match, code: string) => {
    if (code.length > 1 && code.startsWith('x')) return String.fromCharCode(parseInt(code.slice(1), 16));
    if (/^[0-7]+$/.test(code)) return String.fromCharCode(parseInt(code, 8));
    return textEscapes[code] ?? code;
  });
}

const utf8 = new TextDecoder();

/**
 * Rows of COPY text format (tab-separated, newline-terminated, special characters escaped), decoded
 * line by line from the bytes: no string the size of the batch is ever made, which would go
 * straight to V8's old generation and wait there for a full collection.
 */
export function parseCopyText(bytes: Uint8Array): TextRowBatch {
  const ends: number[] = [];
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, end + 1)) ends.push(end);
  return {
    length: ends.length,
    row: (index) => {
      const start = index === 0 ? 0 : (ends[index - 1] ?? 0) + 1;
      const fields: (string | null)[] = utf8.decode(bytes.subarray(start, ends[index] ?? start)).split('\t');
      for (let field = 0; field < fields.length; field++) fields[field] = unescapeCopyText(fields[field] ?? '');
      return fields;
    },
  };
}

/** Statements prepared on each PGlite instance (its one session keeps them). */
const preparedOn = new WeakMap<object, Map<string, Promise<unknown>>>();

const sqlState = (error: unknown) => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined);

/** Names given to statement texts on each client (textRowsByText); null: run unprepared. */
const textNamesOn = new WeakMap<object, Map<string, string | null>>();
/** Texts prepared per session at most: filters combine in many ways, and each plan holds memory. */
const maxPreparedTexts = 500;
let textsNamed = 0;
/** A parameter whose type PostgreSQL cannot infer, or infers two ways: the text cannot be prepared. */
const isPrepareError = (error: unknown) => ['42P18', '42P08'].includes(String(sqlState(error)));
/** 0 → a, 25 → z, 26 → ba: prepared statement names are lower-case words. */
const letters = (index: number): string => (index >= 26 ? letters(Math.floor(index / 26)) : '') + String.fromCharCode(97 + (index % 26));

/** A runner with textRowsByText over its own textRows and preparedTextRows. */
function byText(client: object, runner: Omit<SqlRunner, 'textRowsByText'>): SqlRunner {
  let names = textNamesOn.get(client);
  if (!names) {
    names = new Map();
    textNamesOn.set(client, names);
  }
  const known = names;
  return {
    ...runner,
    async textRowsByText(text, params) {
      let name = known.get(text);
      if (name === undefined) {
        if (known.size >= maxPreparedTexts) return runner.textRows(text, params);
        // Unique in the process: two handles on one PGlite session (tests wrap one) share its names.
        name = `by_text_${letters(textsNamed++)}`;
        known.set(text, name);
      }
      if (name === null) return runner.textRows(text, params);
      try {
        return await runner.preparedTextRows(name, text, params);
      } catch (error) {
        // 42P18 (indeterminate datatype) and kin: this text runs unprepared from now on.
        if (!isPrepareError(error)) throw error;
        known.set(text, null);
        return runner.textRows(text, params);
      }
    },
  };
}

/** The raw runner behind a Drizzle database: PGlite in-process or a node-postgres pool. */
export function sqlRunner(db: Database): SqlRunner {
  const client: unknown = Reflect.get(db, '$client');
  if (isPglite(client)) {
    let prepared = preparedOn.get(client);
    if (!prepared) {
      prepared = new Map();
      preparedOn.set(client, prepared);
    }
    const statements = prepared;
    const prepare = (name: string, text: string) => {
      let done = statements.get(name);
      if (!done) {
        done = client.query(`PREPARE ${name} AS ${text}`).catch((error: unknown) => {
          // 42P05: already prepared on this session (by another runner): fine.
          if (sqlState(error) !== '42P05') {
            statements.delete(name);
            throw error;
          }
        });
        statements.set(name, done);
      }
      return done;
    };
    const copyText = async (text: string, params: readonly SqlParam[]) => {
      const result = await client.query(`COPY (${inlineParams(text, params)}) TO '/dev/blob'`);
      return result.blob ? new Uint8Array(await result.blob.arrayBuffer()) : new Uint8Array(0);
    };
    return byText(client, {
      kind: 'pglite',
      async textRows(text, params) {
        const result = await client.query(text, [...params], { rowMode: 'array' });
        return result.rows.map(asTextRow);
      },
      async preparedTextRows(name, text, params) {
        if (!/^[a-z_]+$/.test(name)) throw new Error('Prepared statement names are lower-case words.');
        await prepare(name, text);
        // EXECUTE takes no bind parameters: the values go in as literals, through the simple query
        // protocol (one message instead of parse, bind, describe and execute: a third cheaper).
        const execute = `EXECUTE ${name}(${params.map((_, index) => `$${index + 1}`).join(', ')})`;
        const [result] = await client.exec(params.length > 0 ? inlineParams(execute, params) : `EXECUTE ${name}`, { rowMode: 'array' });
        return (result?.rows ?? []).map(asTextRow);
      },
      async idChunk(text, params) {
        const result = await client.query(`COPY (${inlineParams(text, params)}) TO '/dev/blob' WITH (FORMAT binary)`);
        if (!result.blob) return { ids: [], lastKey: null, version: null };
        return parseIdChunk(await result.blob.arrayBuffer());
      },
      async idList(text, params) {
        const result = await client.query(`COPY (${inlineParams(text, params)}) TO '/dev/blob' WITH (FORMAT binary)`);
        return result.blob ? parseIdList(await result.blob.arrayBuffer()) : new Float64Array(0);
      },
      bulkTextRows: async (text, params) => parseCopyText(await copyText(text, params)),
      copyText,
    });
  }
  if (isPgPool(client)) {
    const textRows = async (text: string, params: readonly SqlParam[]) => {
      const result = await client.query({ text, values: [...params], rowMode: 'array' });
      return result.rows.map(asTextRow);
    };
    return byText(client, {
      kind: 'postgres',
      textRows,
      async preparedTextRows(name, text, params) {
        // node-postgres prepares a named statement once per pooled connection.
        const result = await client.query({ name, text, values: [...params], rowMode: 'array' });
        return result.rows.map(asTextRow);
      },
      async idChunk(text, params) {
        const rows = await textRows(text, params);
        const last = rows[rows.length - 1];
        return {
          ids: rows.map((row) => Number(row[0])),
          lastKey: last?.[1] ?? null,
          version: rows[0]?.[2] ? Number(rows[0][2]) : null,
        };
      },
      idList: async (text, params) => Float64Array.from(await textRows(text, params), (row) => Number(row[0])),
      bulkTextRows: async (text, params) => batchOf(await textRows(text, params)),
      async copyText(text, params) {
        const connection = await client.connect();
        let failure: Error | undefined;
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of connection.query(copyTo(`COPY (${inlineParams(text, params)}) TO STDOUT`))) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks);
        } catch (error) {
          // A connection whose COPY broke off is not handed out again.
          failure = error instanceof Error ? error : new Error(String(error));
          throw error;
        } finally {
          connection.release(failure);
        }
      },
    });
  }
  throw new Error('Unsupported database client.');
}
