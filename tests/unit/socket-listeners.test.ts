import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The names of ServerToClientEvents, read from its declaration (the one event map, common/socket-events.ts). */
async function serverEventNames(): Promise<string[]> {
  const source = await readFile(path.join(root, 'common/socket-events.ts'), 'utf8');
  const body = /export interface ServerToClientEvents \{([\s\S]*?)\n\}/.exec(source)?.[1];
  if (!body) throw new Error('ServerToClientEvents not found');
  return [...body.matchAll(/^\s*'?([a-z][\w:-]*)'?\s*:\s*\(/gm)].map((m) => m[1]!);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * Issue 25: an event the server sends that no screen listens for is a silent bug (a chat
 * attachment stayed 'Processing…' on both sides until a refetch). Every event of
 * ServerToClientEvents has a listener in the web app: `useRealtimeEvent` / `onRealtimeEvent`, or
 * the connection's own `s.on` for its control events.
 */
describe('the web app listens for every event the server sends', () => {
  it('has a listener for each name of ServerToClientEvents', async () => {
    const names = await serverEventNames();
    expect(names).toContain('message:attachment');
    const sources = (await Promise.all((await sourceFiles(path.join(root, 'src'))).map((f) => readFile(f, 'utf8')))).join('\n');
    const listened = (name: string) =>
      new RegExp(String.raw`(?:useRealtimeEvent|onRealtimeEvent|\bs\.on|socket\.on)\(\s*['"]${name.replace(/[:-]/g, '\\$&')}['"]`).test(sources);
    expect(names.filter((name) => !listened(name))).toEqual([]);
  });
});
