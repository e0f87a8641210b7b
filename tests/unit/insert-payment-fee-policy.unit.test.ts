import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Issue 45 item 5: `insertPayment` once split a charge at the default fee policy when its caller
 * forgot to pass the configured one (PLATFORM_FEE_PERCENT, EARNINGS_HOLD_DAYS ignored without a
 * word). The policy is a required argument now: a call without it does not compile. Checked by
 * the compiler itself, on a file that calls it without `earnings` and one that passes it.
 */
function diagnosticsOf(sources: Record<string, string>): Record<string, string[]> {
  const configPath = path.join(repoRoot, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, repoRoot);
  const files = new Map(Object.entries(sources).map(([name, text]) => [path.join(repoRoot, `tests/unit/__${name}.ts`), text]));
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.getSourceFile = (name, version, onError, create) => {
    const text = files.get(path.resolve(name));
    return text !== undefined ? ts.createSourceFile(name, text, version) : read(name, version, onError, create);
  };
  host.fileExists = (name) => files.has(path.resolve(name)) || exists(name);
  const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
  return Object.fromEntries(
    Object.keys(sources).map((name) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(path.join(repoRoot, `tests/unit/__${name}.ts`))).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

const call = (extra: string) => `
import type { DB } from '../../core/db/kysely';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
void DEFAULT_EARNINGS_POLICY;
export const probe = (db: DB) => insertPayment(db, {
  userId: 'u', tierId: null, creatorId: 'c', subscriptionId: null, description: 'd', idempotencyKey: null,
  amountCents: 10_00, provider: 'builtin', providerRef: null, status: 'succeeded', createdAt: new Date(0)${extra},
});
`;

describe('insertPayment takes the fee policy from its caller', () => {
  it('a call without `earnings` does not compile; with it, it does', () => {
    const found = diagnosticsOf({ passes: call(', earnings: DEFAULT_EARNINGS_POLICY'), forgets: call('') });
    expect(found.passes).toEqual([]);
    expect(found.forgets).toEqual([expect.stringContaining("Property 'earnings' is missing")]);
  }, 60_000);
});
