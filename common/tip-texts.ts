// Apart from common/texts.ts, so the landing page's script does not carry the tip dialog's words.
/** Tips (issue 27 item 1). */
export const TIP_TEXTS = {
  amountInvalid: 'Enter an amount in rand, e.g. 50 or 49.90.',
  amountTooLow: (min: string) => `The smallest tip is ${min}.`,
  amountTooHigh: (max: string) => `The largest tip is ${max}.`,
  messageTooLong: 'Keep the message under 200 characters.',
  creatorNotFound: 'Creator not found',
  selfTip: 'You cannot tip yourself',
  amountMismatch: 'The amount changed: confirm it again before paying.',
  failed: 'Failed to send the tip. Please try again.',
  sent: (amount: string, name: string) => `You tipped ${name} ${amount}`,
  received: (name: string, amount: string) => `${name} tipped you ${amount}`,
  description: (name: string) => `Tip — ${name}`,
} as const;
