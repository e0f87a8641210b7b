import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, SERVER_NODE_ARGS } from './processes';

/** The bench measures the server as production starts it: with the same flags to node. */
describe('the server’s node flags', () => {
  it('are the same in npm start, npm run serve, the Dockerfile and the bench', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const dockerCmd = /^CMD (.*)$/m.exec(readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8'))?.[1] ?? '';
    expect(SERVER_NODE_ARGS.length).toBeGreaterThan(0);
    for (const flag of SERVER_NODE_ARGS) {
      expect(scripts.start).toContain(` ${flag} `);
      expect(scripts.serve).toContain(` ${flag} `);
      expect(dockerCmd).toContain(`"${flag}"`);
    }
  });
});
