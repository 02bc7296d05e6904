import Button from '@mui/material/Button';
import { refundableMinor } from '@branchify/shared';
import { InvoiceTable } from '../../shared/InvoiceTable';
import { Loaded } from '../../shared/Loader';
import { useUserInvoices } from './data';
import { useSubscriptionModals } from './modals';
import { Section } from './Section';

/** Every invoice of the user, of every subscription they had; one with money left to refund can be refunded. */
export const InvoiceList = ({ userId }: { userId: number }) => {
  const invoices = useUserInvoices(userId);
  const modals = useSubscriptionModals();
  return (
    <Section title="Invoices">
      <Loaded query={invoices}>
        {(list) => (
          <InvoiceTable
            invoices={list}
            action={(invoice) =>
              invoice.subscription_id !== null &&
              refundableMinor(invoice) > 0 && (
                <Button size="small" color="error" onClick={() => modals.refund(userId, invoice)}>
                  Refund
                </Button>
              )
            }
          />
        )}
      </Loaded>
    </Section>
  );
};
