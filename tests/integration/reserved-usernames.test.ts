import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isReservedUsername, usernameSchema } from '../../common/auth-schemas';
import { VALIDATION } from '../../common/texts';
import { makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const app = useFileServer();

/**
 * The first URL segment of each file route (TanStack Router's flat names): `_authed.messages.$username`
 * is /messages/..., `auth_.confirm` is /auth/confirm; `__root`, `index`, `$param` and `-private`
 * files name no segment of their own.
 */
async function routeSegments(): Promise<string[]> {
  const files = await readdir(path.join(root, 'src/routes'));
  const segments = files
    .filter((f) => /\.tsx?$/.test(f) && !f.startsWith('-'))
    .map((f) => f.replace(/\.tsx?$/, '').split('.').filter((part) => !(part.startsWith('_') && part !== '_'))[0])
    .map((segment) => segment?.replace(/_$/, ''))
    .filter((segment): segment is string => !!segment && segment !== 'index' && !segment.startsWith('$'));
  return [...new Set(segments)];
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown };
  handle?: { stack?: Layer[] };
}

/** The first path segment of every route and mount of the Express app, sub-routers included. */
function mountSegments(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    const raw = layer.route ? layer.route.path : layer.rawPath;
    const paths = (Array.isArray(raw) ? raw : [raw]).map((p) => {
      if (typeof p !== 'string') throw new Error(`a mount with a path that is not a string: ${String(p)}`);
      return `${prefix}${p === '/' ? '' : p}`;
    });
    for (const full of paths) {
      const first = full.split('/').filter(Boolean)[0];
      if (first) out.push(first);
      if (!layer.route && layer.handle?.stack) out.push(...mountSegments(layer.handle.stack, full));
    }
  }
  return [...new Set(out)];
}

describe('reserved usernames (issue 23 item 7)', () => {
  it('reserves every top-level route of the web app', async () => {
    const segments = await routeSegments();
    expect(segments).toEqual(expect.arrayContaining(['messages', 'settings', 'auth', 'post', 'admin']));
    expect(segments.filter((s) => !isReservedUsername(s))).toEqual([]);
  });

  it("reserves every top-level path the server mounts, and Socket.IO's", () => {
    const router = (app.app.express as unknown as { router: { stack: Layer[] } }).router;
    const segments = mountSegments(router.stack);
    expect(segments).toEqual(expect.arrayContaining(['trpc', 'uploads', 'media', 'webhooks', 'exports', 'avatars', 'message-attachments']));
    expect(segments.filter((s) => !isReservedUsername(s))).toEqual([]);
    expect(isReservedUsername(app.app.io.path().split('/').filter(Boolean)[0]!)).toBe(true);
  });

  it('reserves every file of the built app (public/, index.html, assets/, and dist/ when built)', async () => {
    const names = [...(await readdir(path.join(root, 'public'))), 'index.html', 'assets'];
    // a dot folder (dist/.ssr, the server renderer) is never served (express.static ignores dot files), so it takes no path
    if (existsSync(path.join(root, 'dist'))) names.push(...(await readdir(path.join(root, 'dist'))).filter((n) => !n.startsWith('.')));
    expect(names.filter((n) => !isReservedUsername(n.toLowerCase()))).toEqual([]);
  });

  it('refuses the names that were accepted, and names made only of dots, in the shared schema', () => {
    const taken = ['.', '..', '...', '-', '_.', 'webhooks', 'exports', 'avatars', 'message-attachments', 'favicon.ico', 'robots.txt', 'index.html', 'sw.js', 'null', 'undefined', 'NULL'];
    for (const name of taken) {
      const result = usernameSchema.safeParse(name);
      expect(result.success, name).toBe(false);
      expect(result.error?.issues.map((i) => i.message), name).toEqual([VALIDATION.usernameReserved]);
    }
    for (const name of ['ava', 'a.b', 'null1', 'webhooks-fan', 'x_']) expect(usernameSchema.safeParse(name).success, name).toBe(true);
  });

  it('the server refuses them at sign-up and on a rename', async () => {
    const visitor = app.client();
    const signUp = await expectTrpcError(
      visitor.trpc.auth.signUp.mutate({
        email: 'reserved@example.com',
        password: 'long-enough-password',
        username: 'webhooks',
        firstName: 'Re',
        surname: 'Served',
        dateOfBirth: '1990-01-01',
        acceptTerms: true,
      }),
      'BAD_REQUEST',
    );
    expect(signUp.message).toBe(VALIDATION.usernameReserved);
    const user = await makeUser(app.deps.db);
    const asUser = await clientAs(app, user.id);
    const personal = await asUser.trpc.settings.personalInfo.query();
    const { displayName, bio, categories } = personal;
    const rename = await expectTrpcError(asUser.trpc.settings.updatePersonalInfo.mutate({ username: '..', displayName, bio, categories }), 'BAD_REQUEST');
    expect(rename.message).toBe(VALIDATION.usernameReserved);
    expect((await asUser.trpc.settings.personalInfo.query()).username).toBe(user.username);
  });
});
