import { z } from 'zod';
import { entityId } from './ids';
import { WALLET_TEXTS } from './wallet-texts';

/**
 * The built-in provider's test cards (issue 47 item 6; docs/payments.md, "The wallet"): the numbers
 * card providers publish for testing, so nobody mistakes one for a real card. Only these can be
 * added, each once per fan, and only while the built-in provider is configured; none is charged.
 */
export const TEST_CARDS = {
  visa: { name: 'Visa', last4: '4242' },
  mastercard: { name: 'Mastercard', last4: '4444' },
  amex: { name: 'American Express', last4: '0005' },
} as const;

export type TestCardBrand = keyof typeof TEST_CARDS;
export const TEST_CARD_BRANDS = Object.keys(TEST_CARDS) as TestCardBrand[];

export const AddTestCardInput = z.strictObject({
  brand: z.enum(TEST_CARD_BRANDS as [TestCardBrand, ...TestCardBrand[]], { error: WALLET_TEXTS.unknownTestCard }),
});
export type AddTestCardInput = z.output<typeof AddTestCardInput>;

/** A card of the caller's wallet; an id that is not theirs is answered like an unknown one. */
export const TestCardIdInput = z.strictObject({ cardId: entityId(WALLET_TEXTS.cardNotFound) });
export type TestCardIdInput = z.output<typeof TestCardIdInput>;

export interface TestCardDto {
  id: string;
  brand: TestCardBrand;
  last4: string;
  isDefault: boolean;
  addedAt: Date;
}
