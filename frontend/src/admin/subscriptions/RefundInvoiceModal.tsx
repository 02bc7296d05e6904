import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  MESSAGES,
  currencyRule,
  fitsCurrency,
  formatAmount,
  invoiceStatusLabel,
  messageTemplates,
  refundableAmount,
  refundableMinor,
  toMinor,
  type InvoiceResource,
} from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { formatDate, formatMoney, invoiceBadgeOf } from '../../shared/format';
import { FormTextInput } from '../../shared/form';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { BILLING_CHANGES, useLiveInvoice } from './data';
import { ModalWarning, useModalFailure } from './failure';
import { currencySymbol } from './format';
import { invoiceLabel } from '../../shared/InvoiceTable';
import { FormDialogActions } from '../../shared/FormDialogActions';

const AMOUNT = /^\d+(\.\d+)?$/;

/**
 * The refund amount: above 0, no more decimals than the invoice's currency is charged in, and at
 * most what is not refunded yet of the invoice (compared in the currency's minor units, as Stripe
 * counts them).
 */
const amountSchema = (total: number, left: number, currency: string) => {
  const minor = (v: string | number) => toMinor(v, currency);
  const usable = (v: string) => AMOUNT.test(v) && fitsCurrency(v, currency);
  return z.object({
    refund_amount: z
      .string()
      .trim()
      .refine((v) => AMOUNT.test(v), { message: 'The refund amount must be a number.' })
      .refine((v) => !AMOUNT.test(v) || fitsCurrency(v, currency), {
        message: messageTemplates.tooManyDecimals('refund amount', currency, currencyRule(currency).decimals),
      })
      .refine((v) => !usable(v) || minor(v) > 0, { message: MESSAGES.refundAmountPositive })
      .refine((v) => !usable(v) || minor(v) <= minor(total), { message: MESSAGES.refundExceedsAmount })
      .refine((v) => !usable(v) || minor(v) > minor(total) || minor(v) <= minor(left), {
        message: messageTemplates.refundExceedsRemaining(formatMoney(left, currency)),
      }),
  });
};

/** Only a paid invoice can be refunded, until all of it went back. */
const knownRefusal = (invoice: InvoiceResource): string | null => {
  if (invoice.status === 'refunded') return MESSAGES.alreadyRefunded;
  if (invoice.status !== 'paid') return MESSAGES.invoiceMayBePending;
  if (refundableMinor(invoice) <= 0) return MESSAGES.alreadyRefunded;
  return null;
};

const SummaryRow = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <>
    <Typography color="text.secondary">{label}</Typography>
    <Box>{children}</Box>
  </>
);

/**
 * refund-invoice: the invoice's summary and the amount to refund, all that is not refunded yet by
 * default (sent without an amount); a smaller amount is announced as a partial refund.
 */
export const RefundInvoiceModal = ({ userId, invoice: opened, close }: { userId: number; invoice: InvoiceResource; close: () => void }) => {
  const invoice = useLiveInvoice(userId, opened);
  const left = refundableAmount(invoice);
  const schema = amountSchema(invoice.amount, left, invoice.currency);
  const minor = (amount: number) => toMinor(amount, invoice.currency);
  const form = useForm<z.input<typeof schema>>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { refund_amount: formatAmount(left, invoice.currency) },
  });
  const failure = useModalFailure<z.input<typeof schema>>(['refund_amount'], form.setError);
  const refund = useApiMutation({
    mutationFn: (amount: number) =>
      api.post<InvoiceResource>(`admin/subscriptions/invoices/${invoice.subscription_id}/refund`, {
        invoice_id: invoice.invoice_id ?? invoice.id,
        // Refunding all that is left leaves the amount out.
        ...(minor(amount) < minor(left) ? { amount } : {}),
      }),
    invalidates: BILLING_CHANGES,
    onSuccess: close,
  });
  const refusal = knownRefusal(invoice);
  const typed = form.watch('refund_amount').trim();
  const value = AMOUNT.test(typed) && fitsCurrency(typed, invoice.currency) ? Number(typed) : null;
  const partial = value !== null && minor(value) > 0 && minor(value) < minor(left);

  const onSubmit = form.handleSubmit(async ({ refund_amount }) => {
    failure.clear();
    try {
      await refund.mutateAsync(Number(refund_amount));
    } catch (error) {
      failure.fail(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <ModalWarning message={refusal ?? failure.warning} />
        <Paper variant="outlined" component="section" aria-label="Invoice summary" sx={{ p: 2, mb: 2 }}>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 0.75, alignItems: 'center' }}>
            <SummaryRow label="Invoice">{invoiceLabel(invoice)}</SummaryRow>
            <SummaryRow label="Total">{formatMoney(invoice.amount, invoice.currency)}</SummaryRow>
            {invoice.amount_refunded > 0 && <SummaryRow label="Refunded">{formatMoney(invoice.amount_refunded, invoice.currency)}</SummaryRow>}
            <SummaryRow label="Status">
              <StatusBadge status={invoiceBadgeOf(invoice)} label={invoiceStatusLabel(invoice)} />
            </SummaryRow>
            <SummaryRow label="Date">{formatDate(invoice.created_at)}</SummaryRow>
          </Box>
        </Paper>
        <FormTextInput
          control={form.control}
          name="refund_amount"
          label="Refund amount"
          autoComplete="off"
          fullWidth
          margin="normal"
          disabled={Boolean(refusal)}
          slotProps={{
            input: { startAdornment: <InputAdornment position="start">{currencySymbol(invoice.currency)}</InputAdornment> },
            htmlInput: { inputMode: 'decimal' },
          }}
        />
        {partial && (
          <Alert severity="info" data-testid="partial-refund-notice">
            {messageTemplates.partialRefund(formatMoney(value, invoice.currency), formatMoney(invoice.amount, invoice.currency))}
          </Alert>
        )}
      </DialogContent>
      <FormDialogActions onCancel={close} label="Refund Invoice" color="error" disabled={Boolean(refusal) || refund.isPending} />
    </Box>
  );
};
