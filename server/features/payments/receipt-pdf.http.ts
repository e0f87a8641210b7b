import { Router, type Response } from 'express';
import { readId } from '../../../common/ids';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import type { AppDeps } from '../../../core/deps';
import { findReceipt } from '../../../domain/billing/receipts';
import { sessionUserOf } from '../../http/session-user';
import { receiptPdf } from './receipt-pdf';

function refuse(res: Response, status: number, message: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { message } });
}

/**
 * GET /receipts/<paymentId>/pdf (issue 47 item 6): a purchase's receipt as a PDF, to its payer's
 * session only. Another user's payment, a refund row, a failed charge and an unknown or malformed
 * id all get the same 404, so an id tells nothing; a visitor gets 401.
 */
export function receiptPdfRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/receipts/:paymentId/pdf', async (req, res) => {
    const user = await sessionUserOf(deps, req, res);
    if (!user) return refuse(res, 401, 'Not authenticated');
    const paymentId = readId(req.params.paymentId);
    const receipt = paymentId ? await findReceipt(deps.db, user.id, paymentId) : null;
    if (!receipt) return refuse(res, 404, WALLET_TEXTS.receiptNotFound);
    const pdf = await receiptPdf(receipt);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Length', String(pdf.length));
    res.setHeader('Content-Disposition', `attachment; filename="receipt-${receipt.number}.pdf"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(pdf);
  });
  return router;
}
