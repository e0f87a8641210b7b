import { describe, expect, it } from 'vitest';
import { MAIL_NAME_MAX, nameForMail } from './name-for-mail';

describe('a display name in our mail', () => {
  it('loses whatever reads like a link or an address', () => {
    expect(nameForMail('visit evil.com now')).toBe('visit now');
    expect(nameForMail('Ava https://evil.example/login here')).toBe('Ava here');
    expect(nameForMail('Ava www.evil.io')).toBe('Ava');
    expect(nameForMail('write to pay@evil.com')).toBe('write to');
    expect(nameForMail('@support team')).toBe('team');
    expect(nameForMail('EVIL．COM (fullwidth dot)')).toBe('(fullwidth dot)');
    expect(nameForMail('Ava   Stone')).toBe('Ava Stone');
  });

  it('is at most 40 characters, and never empty', () => {
    const long = nameForMail('A'.repeat(60));
    expect([...long]).toHaveLength(MAIL_NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(nameForMail('evil.com')).toBe('Someone');
  });
});
