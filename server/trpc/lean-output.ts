import superjson from 'superjson';
import type { SuperJSONResult } from 'superjson';

/**
 * tRPC's output transformer (issue 31 item 5): superjson's own wire format, written by one plain
 * walk for the answers made of what JSON holds plus Dates, which is every list the app serves.
 * superjson's general walker cost ten times JSON.stringify on a profile page of 12 posts (about
 * 2 ms of CPU a request, the largest part of the app's own work); this walk copies nothing and
 * costs little more than JSON.stringify. The client keeps decoding with superjson, unchanged: the
 * answer is the `{ json, meta: { values, referentialEqualities, v } }` superjson would have written
 * (the unit test compares the two, byte for byte). Anything else (undefined, a Map, a Set, a bigint, NaN, -0, an invalid
 * date, a class instance, a cycle) is handed to superjson whole.
 */
const BAIL = Symbol('lean-output: let superjson do it');

const escapeKey = (key: string) => (key.includes('.') || key.includes('\\') ? key.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : key);
const pathString = (path: string[]) => path.map(escapeKey).join('.');

function serialize(value: unknown): SuperJSONResult {
  try {
    return leanSerialize(value);
  } catch (error) {
    if (error === BAIL) return superjson.serialize(value);
    throw error;
  }
}

function leanSerialize(root: unknown): SuperJSONResult {
  const path: string[] = [];
  const dates: string[] = [];
  // every object and Date met, with the paths it was met at (superjson's referential equalities)
  const identities = new Map<object, string[][]>();
  const onPath = new Set<object>();
  // inside an object met before, superjson reuses its first answer and records nothing new within
  let tracking = true;

  // Checks that superjson would write `value` as JSON does, and notes its Dates and repeated
  // objects. Nothing is copied: JSON.stringify writes a Date as its toISOString(), as superjson does.
  const walk = (value: unknown): void => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
    if (typeof value === 'number') {
      if (Number.isFinite(value) && !Object.is(value, -0)) return;
      throw BAIL;
    }
    if (typeof value !== 'object') throw BAIL;
    const seen = tracking ? identities.get(value) : undefined;
    if (tracking) {
      if (seen) seen.push(path.slice());
      else identities.set(value, [path.slice()]);
    }
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw BAIL;
      dates.push(pathString(path));
      return;
    }
    if (onPath.has(value)) throw BAIL;
    const wasTracking = tracking;
    if (seen) tracking = false;
    onPath.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!(i in value)) throw BAIL;
        path.push(String(i));
        walk(value[i]);
        path.pop();
      }
    } else {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw BAIL;
      for (const key of Object.keys(value)) {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw BAIL;
        path.push(key);
        walk((value as Record<string, unknown>)[key]);
        path.pop();
      }
    }
    onPath.delete(value);
    tracking = wasTracking;
  };

  walk(root);
  // the value itself: JSON.stringify writes its Dates as superjson would
  const result: SuperJSONResult = { json: root as SuperJSONResult['json'] };
  const meta: NonNullable<SuperJSONResult['meta']> = {};
  if (dates.length) {
    // a Date on its own is annotated as superjson does it: the annotation itself, with no path
    if (root instanceof Date) meta.values = ['Date'];
    else meta.values = Object.fromEntries(dates.map((p) => [p, ['Date']])) as never;
  }
  const equalities: Record<string, string[]> = {};
  for (const paths of identities.values()) {
    if (paths.length < 2) continue;
    // superjson: the shortest path stands for the others (a stable sort by length)
    const [first, ...others] = paths.sort((a, b) => a.length - b.length);
    if (first!.length === 0) throw BAIL;
    equalities[pathString(first!)] = others.map(pathString);
  }
  if (Object.keys(equalities).length) meta.referentialEqualities = equalities;
  if (meta.values || meta.referentialEqualities) {
    // added to meta, not `{ ...meta, v: 1 }`: see objects-per-request.unit.test.ts
    meta.v = 1;
    result.meta = meta;
  }
  return result;
}

/** Answers as superjson writes them, quicker; what comes in is still read by superjson. */
let lean = true;

/**
 * FRAMEWORK_SHORTCUTS (core/config.ts): off, answers are written by superjson itself. tRPC's
 * transformer is fixed when the router is built, at import, so the app sets this when it is made
 * (server/app.ts); one process serves one setting (test files of one worker run one at a time).
 */
export function setLeanOutput(on: boolean): void {
  lean = on;
}

export const leanOutput = {
  serialize: (value: unknown) => (lean ? serialize(value) : superjson.serialize(value)),
  deserialize: (payload: SuperJSONResult) => superjson.deserialize(payload),
};
