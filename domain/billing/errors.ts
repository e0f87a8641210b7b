/** A billing rule refused the request; `message` is shown to the user as is. */
export class BillingError extends Error {
  constructor(
    public readonly code: 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN' | 'PAYMENT_FAILED',
    message: string,
  ) {
    super(message);
  }
}
