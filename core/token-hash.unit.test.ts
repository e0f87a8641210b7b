import { describe, expect, it } from 'vitest';
import { hashToken } from './token-hash';

describe('hashToken', () => {
  it('is the hex SHA-256 of the UTF-8 token, so the sessions and links already stored still match', () => {
    // FIPS 180-2's test vector, and a character outside ASCII (the digest of its UTF-8 bytes, as the JavaScript hash gave)
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});
