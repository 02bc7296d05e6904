import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { invoiceStatusLabel, type InvoiceResource } from '@branchify/shared';
import { formatDate, formatMoney, invoiceBadgeOf } from './format';
import { StatusBadge } from './inputs/StatusBadge';
import { VISUALLY_HIDDEN } from './visually-hidden';

/** Read by screen readers, not shown: an actions column needs a header but no visible one. */

/** How an invoice is named: its number, else Stripe's id, else ours. */
export const invoiceLabel = (invoice: Pick<InvoiceResource, 'number' | 'invoice_id' | 'id'>): string =>
  invoice.number || invoice.invoice_id || String(invoice.id);

/**
 * A user's billing history: every invoice of every subscription they had, as the API lists them
 * (newest first), each with its plan, amount (and what of it was refunded), status and date. The
 * table scrolls inside its own box on a narrow screen. `action` adds a last column (the admin's Refund).
 */
export const InvoiceTable = ({ invoices, action }: { invoices: InvoiceResource[]; action?: (invoice: InvoiceResource) => ReactNode }) => {
  if (invoices.length === 0) return <Typography>No invoices yet.</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Invoices">
        <TableHead>
          <TableRow>
            <TableCell>Invoice</TableCell>
            <TableCell>Plan</TableCell>
            <TableCell>Amount</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Date</TableCell>
            {action && (
              <TableCell>
                <span style={VISUALLY_HIDDEN}>Actions</span>
              </TableCell>
            )}
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
              <TableCell>{invoice.plan?.name ?? '—'}</TableCell>
              <TableCell>
                {formatMoney(invoice.amount, invoice.currency)}
                {invoice.amount_refunded > 0 && (
                  <Typography variant="body2" color="text.secondary">
                    {formatMoney(invoice.amount_refunded, invoice.currency)} refunded
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <StatusBadge status={invoiceBadgeOf(invoice)} label={invoiceStatusLabel(invoice)} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(invoice.created_at)}</TableCell>
              {action && <TableCell align="right">{action(invoice)}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
