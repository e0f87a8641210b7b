// Apart from common/texts.ts, so the landing page's script does not carry the creator checklist's words.

/** A new creator's first steps (issue 47 item 2), in the order they are best taken. */
export const FIRST_STEPS = ['verify', 'payouts', 'tier', 'post'] as const;
export type FirstStep = (typeof FIRST_STEPS)[number];

/** `creators.firstSteps`: which of a creator's first steps are done. */
export type FirstStepsDto = Record<FirstStep, boolean>;

export const FIRST_STEPS_TEXTS = {
  title: 'Get ready to sell',
  intro: 'Fans can subscribe once you have a tier. Each step opens the screen that does it.',
  progress: (done: number, total: number) => `${done} of ${total} done`,
  done: 'Done',
  steps: {
    verify: { label: 'Verify your identity', hint: 'Settings → Account → Verification' },
    payouts: { label: 'Set up your payout account', hint: 'Settings → Payment → Payouts' },
    tier: { label: 'Create your first subscription tier', hint: 'Create → Subscription Tiers' },
    post: { label: 'Publish your first post', hint: 'Create → Upload' },
  } satisfies Record<FirstStep, { label: string; hint: string }>,
  /** the subscribe page of a creator with no tier, for a fan */
  noTiersFan: (name: string) => `${name} has not opened subscriptions yet. Their free posts are on their profile.`,
  backToProfile: (name: string) => `See ${name}’s posts`,
} as const;
