import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InvoiceResource } from '@branchify/shared';
import { formatDate, formatMoney, invoiceBadge } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs';
import { Loaded } from '../../shared/Loader';
import { useSubscriptionInvoices, useUserSubscription } from './data';
import { invoiceLabel } from './format';
import { useSubscriptionModals } from './modals';
import { Section } from './Section';

/** Read by screen readers, not shown: the refund column needs a header but no visible one. */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

const InvoiceTable = ({ subscriptionId, invoices }: { subscriptionId: number; invoices: InvoiceResource[] }) => {
  const modals = useSubscriptionModals();
  if (invoices.length === 0) return <Typography>No invoices yet.</Typography>;
  return (
    <Table size="small" aria-label="Invoices">
      <TableHead>
        <TableRow>
          <TableCell>Invoice</TableCell>
          <TableCell>Amount</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Date</TableCell>
          <TableCell>
            <span style={VISUALLY_HIDDEN}>Actions</span>
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {invoices.map((invoice) => (
          <TableRow key={invoice.id} data-testid="invoice-row" data-invoice={invoice.invoice_id ?? invoice.id}>
            <TableCell>
              {invoice.hosted_invoice_url ? (
                <Link href={invoice.hosted_invoice_url} target="_blank" rel="noopener noreferrer">
                  {invoiceLabel(invoice)}
                </Link>
              ) : (
                invoiceLabel(invoice)
              )}
            </TableCell>
            <TableCell>
              {formatMoney(invoice.amount, invoice.currency)}
              {invoice.amount_refunded > 0 && (
                <Typography variant="body2" color="text.secondary">
                  {formatMoney(invoice.amount_refunded, invoice.currency)} refunded
                </Typography>
              )}
            </TableCell>
            <TableCell>
              <StatusBadge status={invoiceBadge(invoice.status)} label={invoice.status} />
            </TableCell>
            <TableCell>{formatDate(invoice.created_at)}</TableCell>
            <TableCell align="right">
              {invoice.status === 'paid' && (
                <Button size="small" color="error" onClick={() => modals.refund(subscriptionId, invoice)}>
                  Refund
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

/** The invoices of the user's current subscription; a paid one can be refunded. */
export const InvoiceList = ({ userId }: { userId: number }) => {
  const subscription = useUserSubscription(userId);
  const subscriptionId = subscription.data?.id ?? null;
  const invoices = useSubscriptionInvoices(subscriptionId);
  return (
    <Section title="Invoices">
      <Loaded query={subscription}>
        {(sub) =>
          sub ? (
            <Loaded query={invoices}>{(list) => <InvoiceTable subscriptionId={sub.id} invoices={list} />}</Loaded>
          ) : (
            <Typography>No invoices yet.</Typography>
          )
        }
      </Loaded>
    </Section>
  );
};
