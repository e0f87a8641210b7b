import { capabilitiesOf } from '../../../core/payments/capabilities';
import PDFDocument from 'pdfkit';
import { formatMoney, moneyOfRand, subtractMoney } from '../../../common/money';
import type { ReceiptDto } from '../../../common/receipts';
import { PAYMENT_LABEL_TEXTS } from '../../../common/payment-texts';
import { RECEIPT_TEXTS } from '../../../common/wallet-texts';
import { BRAND } from '../../../common/texts';

/**
 * A receipt as a PDF (issue 47 item 6), made on the server with pdfkit's built-in Helvetica: no
 * font file to ship, and its text stays plain text in the file (searchable, copyable). Helvetica
 * writes the WinAnsi characters only, so anything else in a name (an emoji, another script) is
 * printed as '?', never as broken bytes.
 */

const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function winAnsi(text: string): string {
  let out = '';
  for (const char of text.replace(/\u2212/g, '-')) {
    const code = char.codePointAt(0) ?? 0;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char) ? char : '?';
  }
  return out;
}

/** R311.00, or -R311.00 for money going back (Helvetica has no minus sign). */
function amountText(rand: string): string {
  const money = moneyOfRand(rand);
  return money.cents < 0 ? `-${formatMoney(subtractMoney(moneyOfRand('0'), money))}` : formatMoney(money);
}

/** The server knows no reader's time zone: the PDF says UTC, plainly. */
const dateTime = (d: Date) =>
  `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}, ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;

const REVERSAL_WORDS = { refund: RECEIPT_TEXTS.refund, dispute: RECEIPT_TEXTS.chargeback, dispute_won: RECEIPT_TEXTS.disputeWon } as const;

export function receiptPdf(receipt: ReceiptDto): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: winAnsi(`${RECEIPT_TEXTS.title} ${receipt.number}`), Author: BRAND.name, Subject: winAnsi(receipt.description) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const labelWidth = 140;

  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111111').text(BRAND.name);
  doc.moveDown(0.2).font('Helvetica').fontSize(14).fillColor('#444444').text(`${RECEIPT_TEXTS.title} ${receipt.number}`);
  doc.moveDown(1.2);

  const row = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font('Helvetica').fontSize(10).fillColor('#666666').text(label, left, y, { width: labelWidth });
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(11).fillColor('#111111').text(winAnsi(value), left + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.6);
  };
  const rule = () => {
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.5).strokeColor('#cccccc').stroke();
    doc.moveDown(0.8);
  };

  row(RECEIPT_TEXTS.number, receipt.number);
  row(RECEIPT_TEXTS.date, dateTime(receipt.paidAt));
  row(RECEIPT_TEXTS.item, receipt.description);
  row(RECEIPT_TEXTS.seller, receipt.seller.username ? `${receipt.seller.name} (@${receipt.seller.username})` : receipt.seller.name);
  row(RECEIPT_TEXTS.billedTo, `${receipt.buyer.name} <${receipt.buyer.email}>`);
  row(RECEIPT_TEXTS.paidWith, capabilitiesOf(receipt.provider)?.isTest ? RECEIPT_TEXTS.builtinMethod : RECEIPT_TEXTS.stripeMethod);
  row(RECEIPT_TEXTS.status, PAYMENT_LABEL_TEXTS[receipt.label]);
  rule();
  row(RECEIPT_TEXTS.amount, amountText(receipt.amount), true);
  for (const reversal of receipt.reversals) {
    row(REVERSAL_WORDS[reversal.kind], `${amountText(reversal.amount)} on ${dateTime(reversal.at)}`);
  }
  if (receipt.reversals.length > 0) row(RECEIPT_TEXTS.net, amountText(receipt.net), true);
  rule();
  doc.font('Helvetica').fontSize(9).fillColor('#666666').text(RECEIPT_TEXTS.footer, left, doc.y, { width });
  doc.end();
  return done;
}
