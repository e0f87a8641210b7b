import { CompiledQuery, type Compilable, type InferResult } from 'kysely';
import type { DB } from './kysely';

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

/** The stand-ins `build` sees: a marker naming each value's path, the nulls as they are. */
function standIns<P extends Params>(params: P): P {
  const mark = (value: Value, path: string): Value => (value === null || value === undefined ? value : ({ [MARK]: path } as unknown as Value));
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

export function statementShape<P extends Params, Q extends Compilable<unknown>>(build: (db: DB, params: P, shape: string) => Q) {
  const compiled = new Map<string, CompiledQuery>();
  return async function run(db: DB, params: P, shape = ''): Promise<InferResult<Q>> {
    const key = `${shape}|${nullsOf(params)}`;
    let template = compiled.get(key);
    if (!template) {
      template = build(db, standIns(params), shape).compile() as CompiledQuery;
      compiled.set(key, template);
    }
    const parameters = template.parameters.map((p) => (isMarker(p) ? valueAt(params, p[MARK]) : p));
    const result = await db.executeQuery<InferResult<Q>[number]>(CompiledQuery.raw(template.sql, parameters));
    return result.rows as InferResult<Q>;
  };
}
