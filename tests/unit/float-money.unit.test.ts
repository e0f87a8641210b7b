import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The code that computes, stores, sends or shows money: the app, its workers, scripts and the tests' helpers. */
const FOLDERS = ['common', 'core', 'domain', 'server', 'src', 'worker', 'scripts', 'tests/helpers'];

/** The one money module: rand become cents there, and only there (docs/payments.md, "Money in cents"). */
const MONEY_MODULE = 'common/money.ts';

/**
 * Sites of these forms that are no money: progress bars and percentages of bytes or seconds, a
 * seconds value read from ffprobe, a retry's jitter. Keyed by file and the expression's text, so
 * any other site of the form in the same file is still refused.
 */
const NOT_MONEY = new Set([
  'src/features/settings/personal-info-form.tsx: progress * 100', // an upload's progress bar
  'src/features/uploads/upload-machine.ts: (sent / total) * 100',
  'src/features/uploads/use-multi-upload.ts: (sent / total) * 100',
  'src/features/uploads/upload-progress.tsx: (progress.sent / progress.total) * 100',
  'src/features/messages/message-bubble.tsx: item.progress * 100',
  'src/features/forensics/leak-upload.tsx: sending.fraction * 100', // a leak's upload progress bar
  'src/features/forensics/trace-words.ts: hundredths / 100', // a trace's confidence in %
  'src/components/first-steps-checklist.tsx: (done / FIRST_STEPS.length) * 100', // the checklist's progress bar
  'worker/jobs/media-files.ts: percent / 100', // a job's progress over several files
  'worker/jobs/media-files.ts: ((index + percent / 100) / files.length) * 100',
  'worker/media/video.ts: (seconds / args.durationSeconds) * 100', // transcoding progress
  'worker/media/audio.ts: (seconds / probed.durationSeconds) * 100',
  'scripts/seed/media.ts: Math.round(Number.parseFloat(stdout) * 1000)', // a duration in seconds, to the millisecond
  'tests/helpers/databases.ts: Math.random() * 100', // a retry's jitter in ms
]);

function sources(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => !f.includes('node_modules'))
    .filter((f) => /\.tsx?$/.test(f) && !/\.(test|spec)\.tsx?$/.test(f))
    .map((f) => `${folder}/${f}`)
    .filter((f) => f !== MONEY_MODULE);
}

const bare = (node: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(node) ? bare(node.expression) : node);
const isHundred = (node: ts.Expression) => {
  const n = bare(node);
  return ts.isNumericLiteral(n) && Number(n.text.replaceAll('_', '')) === 100;
};
const MULTIPLY_OR_DIVIDE = new Set([ts.SyntaxKind.AsteriskToken, ts.SyntaxKind.SlashToken, ts.SyntaxKind.AsteriskEqualsToken, ts.SyntaxKind.SlashEqualsToken]);
/** Number(x), parseFloat(x), Number.parseFloat(x): a decimal string read as a float */
const isFloatRead = (node: ts.Expression) => {
  const n = bare(node);
  return ts.isCallExpression(n) && ['Number', 'parseFloat', 'Number.parseFloat'].includes(n.expression.getText());
};
const isFloatArithmetic = (node: ts.Node): boolean =>
  (ts.isBinaryExpression(node) && MULTIPLY_OR_DIVIDE.has(node.operatorToken.kind) && (isFloatRead(node.left) || isFloatRead(node.right))) ||
  (ts.forEachChild(node, (child) => (isFloatArithmetic(child) ? true : undefined)) ?? false);

/**
 * Float money in `text`, as { site: "file:line: form: expression", key: "file: expression" }:
 *   - `x * 100`, `x / 100` (and `*=`, `/=`): rand to cents or back by hand;
 *   - `Math.round|floor|ceil|trunc(...)` of a product or quotient of `Number(...)`/`parseFloat(...)`;
 *   - `.toFixed()` of `Number(...)` or `parseFloat(...)`, `.toFixed(2)` of a quotient: rand written through a float.
 */
function floatMoney(file: string, text: string): { site: string; key: string }[] {
  // none of the forms without one of these: most files need no parse
  if (!/\b1_?0_?0\b|toFixed|parseFloat|Number\(/.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { site: string; key: string }[] = [];
  const report = (node: ts.Node, form: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ site: `${file}:${line}: ${form}: ${node.getText().slice(0, 100)}`, key: `${file}: ${node.getText()}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && MULTIPLY_OR_DIVIDE.has(node.operatorToken.kind) && (isHundred(node.left) || isHundred(node.right))) {
      report(node, `${node.operatorToken.getText()} 100`);
    }
    if (ts.isCallExpression(node) && /^Math\.(round|floor|ceil|trunc)$/.test(node.expression.getText()) && node.arguments.some(isFloatArithmetic)) {
      report(node, 'float rounding');
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'toFixed') {
      const receiver = bare(node.expression.expression);
      const quotient = ts.isBinaryExpression(receiver) && receiver.operatorToken.kind === ts.SyntaxKind.SlashToken;
      if (isFloatRead(receiver) || (quotient && node.arguments[0]?.getText() === '2')) report(node, 'toFixed');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Money is whole cents end to end (issue 45): rand strings become cents in common/money.ts and
 * every sum, share, discount and fee is reckoned there or on its integers. A float on the way made
 * the same 15% off R10.50 two prices (R8.93 as a tier discount, R8.92 as an offer), through five
 * `cents()` helpers of their own.
 */
describe('money is never a float', () => {
  it('converts rand and cents in common/money.ts only, and rounds no float of money', () => {
    const offending = FOLDERS.flatMap(sources)
      .flatMap((file) => floatMoney(file, readFileSync(path.join(repoRoot, file), 'utf8')))
      .filter((s) => !NOT_MONEY.has(s.key))
      .map((s) => s.site);
    expect(offending, 'use Money from common/money.ts (toCents, fromCents, canonicalRand, percentOf, percentOff, ...), or list a site that is no money in NOT_MONEY').toEqual([]);
  }, 30_000);

  it('finds the float money that was there, in each of its forms', () => {
    const old = [
      'const cents = (amount: string) => Math.round(Number(amount) * 100);', // domain/billing/prices.ts, bundles.ts
      'const rand = (c: number) => (c / 100).toFixed(2);', // domain/billing/bundles.ts
      'return (Math.round(cents - (cents * pct) / 100) / 100).toFixed(2);', // common/discounted-price.ts
      'return cents >= UNLOCK_MIN * 100 && cents <= UNLOCK_MAX * 100 ? cents : null;', // common/post-unlock.ts
      'const price = row.price === null ? null : Number(row.price).toFixed(2);', // domain/messaging/attachments.ts
      'const off = Math.round(parseFloat(price) * percent);',
      'total *= 100;',
    ].join('\n');
    expect(floatMoney('common/sample.ts', old).map((s) => s.site)).toEqual([
      'common/sample.ts:1: float rounding: Math.round(Number(amount) * 100)',
      'common/sample.ts:1: * 100: Number(amount) * 100',
      'common/sample.ts:2: toFixed: (c / 100).toFixed(2)',
      'common/sample.ts:2: / 100: c / 100',
      'common/sample.ts:3: toFixed: (Math.round(cents - (cents * pct) / 100) / 100).toFixed(2)',
      'common/sample.ts:3: / 100: Math.round(cents - (cents * pct) / 100) / 100',
      'common/sample.ts:3: / 100: (cents * pct) / 100',
      'common/sample.ts:4: * 100: UNLOCK_MIN * 100',
      'common/sample.ts:4: * 100: UNLOCK_MAX * 100',
      'common/sample.ts:5: toFixed: Number(row.price).toFixed(2)',
      'common/sample.ts:6: float rounding: Math.round(parseFloat(price) * percent)',
      'common/sample.ts:7: *= 100: total *= 100',
    ]);
  });

  it('lets be what is no money, and money in cents', () => {
    const fine = [
      "import { percentOff, moneyOfRand, randOf } from './money';",
      'const price = randOf(percentOff(moneyOfRand(tier.price), 15));',
      'const fee = Math.floor((2 * reversed * earning + charge) / (2 * charge));',
      'const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);',
      'const mb = (bytes / (1024 * 1024)).toFixed(1); const ok = Number(v) > 0; const hundred = 1000 / 10; const ms = (elapsed / 1000).toFixed(1);',
    ].join('\n');
    expect(floatMoney('domain/sample.ts', fine)).toEqual([]);
  });
});
