import { CompiledQuery, type Compilable, type InferResult } from 'kysely';
import type { DB } from './kysely';
import { prepareStatement } from './prepared-statements';

/**
 * A statement built and compiled by Kysely once per shape, then run with each call's values
 * (issue 31 item 5). A hot list's statement (the feed, a profile's posts: a page with its cards,
 * counts and viewer state) costs more to build and compile — dozens of parser calls and frozen
 * nodes per request — than to run; its SQL depends only on its shape, never on its values.
 *
 * `build` receives the parameters as stand-ins: each string or number value becomes an opaque
 * marker object that Kysely carries into the compiled parameters untouched, and which each call
 * replaces with its own value. The shape is the `shape` key the caller gives for the options that
 * change the SQL itself, plus which parameters are null (a null is passed to `build` as is, so
 * `viewerId ? … : …` and `cursor !== null` branch as they would). So `build` may branch on
 * null-ness and on `shape`, never on a parameter's value (no `kind === 'media'`): such an option
 * belongs in `shape`. The unit test holds the substitution; the lists' own tests hold the rows.
 *
 * Each shape's SQL runs as a named prepared statement (prepared-statements.ts), so PostgreSQL
 * parses it once per connection and may keep one generic plan for it. A generic plan is only as
 * good as what it knows without the values, so the constants `build` writes (a status, a
 * visibility) go into the SQL as literals, where a partial index `where status = 'published'` can
 * be matched, and so do the parameters named in `literals` (a page's `limit`: with LIMIT $n the
 * planner guesses a tenth of the rows and sorts them all instead of walking an index); their
 * values are part of the shape, so only small closed sets of values belong there.
 */
const MARK = Symbol('statement-parameter');

interface Marker {
  readonly [MARK]: string;
}

type Value = string | number | null;
type Params = Record<string, Value | Record<string, Value> | readonly string[] | null>;

const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && MARK in value;

/** The parameters that are null (or absent): part of the shape. */
function nullsOf(params: Params): string {
  let nulls = '';
  for (const key in params) {
    const value = params[key];
    if (value === null || value === undefined) nulls += `${key},`;
    // a list's length is part of the shape: each item is a parameter of its own
    else if (Array.isArray(value)) nulls += `${key}#${value.length},`;
    else if (typeof value === 'object') {
      const record = value as Record<string, Value>;
      for (const inner in record) if (record[inner] === null || record[inner] === undefined) nulls += `${key}.${inner},`;
    }
  }
  return nulls;
}

/** The values of `literals`, written into the SQL: part of the shape. */
function literalsOf(params: Params, literals: ReadonlySet<string>): string {
  let key = '';
  for (const name of literals) {
    const value = params[name];
    if (!isLiteral(value)) throw new Error(`statementShape: ${name} is not a literal (an integer or a lower-case word)`);
    key += `${name}=${value},`;
  }
  return key;
}

const isLiteral = (value: unknown): value is string | number =>
  (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^[a-z_]{1,40}$/.test(value));

/** The stand-ins `build` sees: a marker naming each value's path, the nulls and literals as they are. */
function standIns<P extends Params>(params: P, literals: ReadonlySet<string>): P {
  const mark = (value: Value, path: string): Value =>
    value === null || value === undefined || literals.has(path) ? value : ({ [MARK]: path } as unknown as Value);
  const stand = Object.fromEntries(
    Object.entries(params).map(([key, value]) =>
      Array.isArray(value)
        ? [key, value.map((item, index) => mark(item as Value, `${key}.${index}`))]
        : value !== null && typeof value === 'object'
        ? [key, Object.fromEntries(Object.entries(value).map(([inner, v]) => [inner, mark(v, `${key}.${inner}`)]))]
        : [key, mark(value, key)],
    ),
  ) as P;
  return stand;
}

function valueAt(params: Params, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot < 0) return params[path];
  // an object's property, or a list's item by its index
  return (params[path.slice(0, dot)] as Record<string, Value>)[path.slice(dot + 1)];
}

/** A compiled shape: its SQL with the constants written in, and where each remaining parameter's value is found. */
interface Template {
  sql: string;
  /** a value's path in the call's parameters, or a constant kept as a parameter (a null, a date) */
  parameters: Array<{ path: string } | { constant: unknown }>;
}

/** A string or number constant as a SQL literal; anything else (or a string that would need escaping) stays a parameter. */
function sqlLiteral(value: unknown): string | null {
  // in parentheses when negative: `a -$1` must not become the comment `a --1`
  if (typeof value === 'number' && Number.isFinite(value)) return value < 0 ? `(${value})` : String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && /^[\w .:-]*$/.test(value)) return `'${value}'`;
  return null;
}

/** Writes the compiled statement's constants into its SQL and numbers its markers $1, $2, ... */
function templateOf(query: CompiledQuery): Template {
  const parameters: Template['parameters'] = [];
  const replacement = query.parameters.map((p) => {
    if (isMarker(p)) return `$${parameters.push({ path: p[MARK] })}`;
    return sqlLiteral(p) ?? `$${parameters.push({ constant: p })}`;
  });
  const sql = query.sql.replace(/\$(\d+)/g, (_match, n: string) => replacement[Number(n) - 1]!);
  return { sql, parameters };
}

export function statementShape<P extends Params, Q extends Compilable<unknown>>(
  build: (db: DB, params: P, shape: string) => Q,
  options: {
    literals?: ReadonlyArray<keyof P & string>;
    /**
     * Whether a shape runs as a prepared statement (default: every shape). Not a shape whose best
     * plan depends on a value's selectivity (a searched word: rare ones want the search index,
     * common ones the newest-first walk), which a generic plan cannot know.
     */
    prepare?: (params: P) => boolean;
  } = {},
) {
  const literals = new Set<string>(options.literals ?? []);
  const compiled = new Map<string, Template>();
  return async function run(db: DB, params: P, shape = ''): Promise<InferResult<Q>> {
    const key = `${shape}|${nullsOf(params)}|${literalsOf(params, literals)}`;
    let template = compiled.get(key);
    if (!template) {
      template = templateOf(build(db, standIns(params, literals), shape).compile());
      if (options.prepare?.(params) ?? true) prepareStatement(template.sql);
      compiled.set(key, template);
    }
    const parameters = template.parameters.map((p) => ('path' in p ? valueAt(params, p.path) : p.constant));
    const result = await db.executeQuery<InferResult<Q>[number]>(CompiledQuery.raw(template.sql, parameters));
    return result.rows as InferResult<Q>;
  };
}
