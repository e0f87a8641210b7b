import {
  AddLinkInput,
  CancelScheduleInput,
  DeleteLinkInput,
  DraftsInput,
  ProfileByUsernameInput,
  ProfilePostsInput,
  PublishDraftInput,
  RescheduleInput,
  ScheduledInput,
  UpdateSocialLinksInput,
} from '../../../common/profile-schemas';
import { authedProcedure, publicProcedure, router } from '../../trpc/init';
import * as profiles from './profiles.service';

/**
 * Creator profiles. Reads are public; every write acts on the caller's own profile or posts (the
 * session says whose: no input names a user).
 */
export const profilesRouter = router({
  /**
   * The /{username} header card. BAD_REQUEST 'Username is required'; NOT_FOUND 'Profile not
   * found' for an unknown username and for a private or hidden profile (except to its owner).
   */
  byUsername: publicProcedure
    .input(ProfileByUsernameInput)
    .query(({ ctx, input }) => profiles.profileByUsername(ctx, ctx.user?.id ?? null, input.username)),

  /** Content tab: published posts, 5 per page, `kind` 'media' for images and videos, `q` to search. Same NOT_FOUND as byUsername. */
  posts: publicProcedure.input(ProfilePostsInput).query(({ ctx, input }) => profiles.profilePosts(ctx, ctx.user?.id ?? null, input)),

  /** Drafts tab: the caller's own drafts, 10 per page. */
  drafts: authedProcedure.input(DraftsInput).query(({ ctx, input }) => profiles.drafts(ctx, ctx.user.id, input)),

  /** Scheduled tab: the caller's own scheduled posts, soonest first, 10 per page. */
  scheduled: authedProcedure.input(ScheduledInput).query(({ ctx, input }) => profiles.scheduled(ctx, ctx.user.id, input)),

  /** A new time for one of the caller's scheduled posts; NOT_FOUND 'Post not found' for anything else, BAD_REQUEST for a time out of bounds. */
  reschedule: authedProcedure.input(RescheduleInput).mutation(({ ctx, input }) => profiles.reschedule(ctx, ctx.user.id, input)),

  /** One of the caller's scheduled posts back to their drafts; NOT_FOUND 'Post not found' for anything else. */
  cancelSchedule: authedProcedure.input(CancelScheduleInput).mutation(({ ctx, input }) => profiles.cancelSchedule(ctx, ctx.user.id, input.postId)),

  /** Publishes one of the caller's drafts or scheduled posts now; NOT_FOUND 'Post not found' for anything else. */
  publishDraft: authedProcedure
    .input(PublishDraftInput)
    .mutation(({ ctx, input }) => profiles.publishDraft(ctx, ctx.user.id, input.postId)),

  /** Adds a custom link; returns the list. FORBIDDEN at the free limit (5 links). */
  addLink: authedProcedure.input(AddLinkInput).mutation(({ ctx, input }) => profiles.addLink(ctx, ctx.user.id, input)),

  /** Deletes a custom link by position and/or URL; returns the list. */
  deleteLink: authedProcedure.input(DeleteLinkInput).mutation(({ ctx, input }) => profiles.deleteLink(ctx, ctx.user.id, input)),

  /** Sets or ('') removes social links; returns them all. */
  updateSocialLinks: authedProcedure
    .input(UpdateSocialLinksInput)
    .mutation(({ ctx, input }) => profiles.updateSocialLinks(ctx, ctx.user.id, input)),

  /** Hides the upgrade card for good. */
  dismissUpgradeCard: authedProcedure.mutation(({ ctx }) => profiles.dismissUpgradeCard(ctx, ctx.user.id)),
});
