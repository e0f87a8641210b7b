import type { BadgedPersonDto } from './person-dtos';

/** What the server returns for profiles and Explore's creator cards. */

export interface CustomLinkDto {
  title: string;
  /** always an http(s) address */
  url: string;
}

/** Stored values: twitter and instagram are usernames; open them with `socialLinkHref` (common/links.ts). */
export interface SocialLinksDto {
  twitter?: string;
  instagram?: string;
  youtube?: string;
  website?: string;
}

/** The /{username} header card and what the viewer may do there. */
export interface ProfileDto {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string | null;
  categories: string[];
  isVerified: boolean;
  isPremium: boolean;
  isCreator: boolean;
  /**
   * the creator has a tier a new fan can choose (issue 47 item 2): without one, nobody is offered
   * Subscribe or the Subscribe Now card, and the owner is guided to their first tier
   */
  hasTier: boolean;
  socialLinks: SocialLinksDto;
  customLinks: CustomLinkDto[];
  /** active subscribers (domain/subscriptions/active.ts) */
  subscriberCount: number;
  /** published posts */
  postCount: number;
  /** published image and video posts (the Content tab's media view) */
  mediaCount: number;
  /** the owner's drafts, for 'Drafts (n)'; null for everyone else */
  draftCount: number | null;
  viewer: {
    isOwner: boolean;
    /**
     * Subscribe / Subscribed: the viewer has an active subscription to this creator, by the same
     * definition that unlocks premium posts (domain/subscriptions/active.ts).
     */
    isSubscribed: boolean;
    /** the Message button: signed in and not the owner */
    canMessage: boolean;
  };
  /** the owner, not premium, has not dismissed the upgrade card */
  showUpgradeCard: boolean;
}

/** A creator card: the landing page's featured creators and Explore's creator strip. */
export interface CreatorCardDto extends BadgedPersonDto {
  categories: string[];
  subscriberCount: number;
}
