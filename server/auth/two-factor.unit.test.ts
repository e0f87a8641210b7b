import { describe, expect, it } from 'vitest';
import { describeDevice } from './device';
import { currentTotpCode, generateRecoveryCodes, generateTotpSecret, hashRecoveryCode, matchTotpStep } from './two-factor';

describe('TOTP codes', () => {
  const key = generateTotpSecret();
  const now = Date.UTC(2026, 10, 23, 12, 0, 10);
  const step = Math.floor(now / 30_000);

  it('accepts the current code and one step either side, nothing further', () => {
    expect(matchTotpStep(key, currentTotpCode(key, now), null, now)).toBe(step);
    expect(matchTotpStep(key, currentTotpCode(key, now - 30_000), null, now)).toBe(step - 1);
    expect(matchTotpStep(key, currentTotpCode(key, now + 30_000), null, now)).toBe(step + 1);
    expect(matchTotpStep(key, currentTotpCode(key, now + 90_000), null, now)).toBeNull();
    expect(matchTotpStep(generateTotpSecret(), currentTotpCode(key, now), null, now)).toBeNull();
  });

  it('refuses a code of a step already used (or older): a code works once', () => {
    expect(matchTotpStep(key, currentTotpCode(key, now), step, now)).toBeNull();
    expect(matchTotpStep(key, currentTotpCode(key, now - 30_000), step, now)).toBeNull();
    expect(matchTotpStep(key, currentTotpCode(key, now + 30_000), step, now)).toBe(step + 1);
  });
});

describe('recovery codes', () => {
  it('are ten distinct xxxxx-xxxxx codes whose hash ignores case, spaces and the dash', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const code = codes[0]!;
    expect(hashRecoveryCode(` ${code.toUpperCase().replace('-', '')} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toBe(hashRecoveryCode(codes[1]!));
  });
});

describe('describeDevice', () => {
  it('names common browsers and systems', () => {
    expect(describeDevice('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe('Safari on macOS');
    expect(describeDevice('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('Firefox on Windows');
    expect(describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS');
    expect(describeDevice(null)).toBe('Unknown device');
  });
});
