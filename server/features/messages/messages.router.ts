import {
  AdminReportsInput,
  ChatListInput,
  CloseReportInput,
  EditMessageInput,
  MarkReadInput,
  MessageIdInput,
  PartnerInput,
  ReactInput,
  ReportIdInput,
  ReportMessageInput,
  SendMessageInput,
  SinceInput,
  ThreadInput,
  UsernameInput,
} from '../../../common/message-schemas';
import { UnlockMessageInput } from '../../../common/paid-message-schemas';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { unlockMessage } from './unlock.service';
import { VaultFileRef } from '../../../common/vault-schemas';
import { attachFromVault } from './attachments.service';
import { adminProcedure, authedProcedureSaying, router } from '../../trpc/init';
import { block, unblock } from './blocks.service';
import {
  chatList,
  deleteMessage,
  editMessage,
  markRead,
  messagesSince,
  partner,
  reactToMessage,
  sendMessage,
  thread,
  unreadCount,
} from './messages.service';
import { typing } from './presence.service';
import { closeReport, listReports, openReport, removeReportedMessage, reportMessage, suspendReportedSender } from './reports.service';

/** Spec part 2 §8: 'Not authenticated' without a session. */
const authed = authedProcedureSaying(MESSAGE_TEXTS.notAuthenticated);

/** Direct messages (issue 12); the API as the client sees it is in docs/messaging.md. */
export const messagesRouter = router({
  /** Messages to the signed-in user not read yet. */
  unreadCount: authed.query(({ ctx }) => unreadCount(ctx, ctx.user.id)),
  chatList: authed.input(ChatListInput).query(({ ctx, input }) => chatList(ctx, ctx.user.id, input)),
  partner: authed.input(PartnerInput).query(({ ctx, input }) => partner(ctx, ctx.user.id, input)),
  thread: authed.input(ThreadInput).query(({ ctx, input }) => thread(ctx, ctx.user.id, input)),
  since: authed.input(SinceInput).query(({ ctx, input }) => messagesSince(ctx, ctx.user.id, input)),
  /** a file of the caller's media vault as a ready attachment, without uploading (issue 29 item 3); FORBIDDEN for anyone else's */
  attachFromVault: authed.input(VaultFileRef).mutation(({ ctx, input }) => attachFromVault(ctx, ctx.user.id, input)),
  send: authed.input(SendMessageInput).mutation(({ ctx, input }) => sendMessage(ctx, ctx.user.id, input)),
  edit: authed.input(EditMessageInput).mutation(({ ctx, input }) => editMessage(ctx, ctx.user.id, input)),
  delete: authed.input(MessageIdInput).mutation(({ ctx, input }) => deleteMessage(ctx, ctx.user.id, input)),
  react: authed.input(ReactInput).mutation(({ ctx, input }) => reactToMessage(ctx, ctx.user.id, input)),
  /** pay-per-view (issue 27 item 3): one confirmed charge per (fan, message) opens its file for good */
  unlock: authed.input(UnlockMessageInput).mutation(({ ctx, input }) => unlockMessage(ctx, ctx.user.id, input)),
  markRead: authed.input(MarkReadInput).mutation(({ ctx, input }) => markRead(ctx, ctx.user.id, input)),
  typing: authed.input(UsernameInput).mutation(({ ctx, input }) => typing(ctx, ctx.user.id, input)),
  block: authed.input(UsernameInput).mutation(({ ctx, input }) => block(ctx, ctx.user.id, input)),
  unblock: authed.input(UsernameInput).mutation(({ ctx, input }) => unblock(ctx, ctx.user.id, input)),
  report: authed.input(ReportMessageInput).mutation(({ ctx, input }) => reportMessage(ctx, ctx.user.id, input)),
  adminReports: adminProcedure.input(AdminReportsInput).query(({ ctx, input }) => listReports(ctx, input)),
  closeReport: adminProcedure.input(CloseReportInput).mutation(({ ctx, input }) => closeReport(ctx, ctx.user.id, input)),
  /** one report with what was reported (text, the file's copy); each call is logged in report_views */
  openReport: adminProcedure.input(ReportIdInput).mutation(({ ctx, input }) => openReport(ctx, ctx.user.id, input)),
  removeReportedMessage: adminProcedure.input(ReportIdInput).mutation(({ ctx, input }) => removeReportedMessage(ctx, ctx.user.id, input)),
  suspendReportedSender: adminProcedure.input(ReportIdInput).mutation(({ ctx, input }) => suspendReportedSender(ctx, ctx.user.id, input)),
});
