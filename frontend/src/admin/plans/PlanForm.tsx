import { useEffect, useRef, type ReactElement } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { fitsCurrency, planSchema, priceDisplay, type PaymentSchedule } from '@branchify/shared';
import Typography from '@mui/material/Typography';
import { BooleanInput, NumberInput, SelectInput, SimpleForm, TextInput, useSaveContext } from 'react-admin';
import { useFormContext, useWatch, type FieldValues } from 'react-hook-form';
import { managedByChoices, scheduleChoices } from './labels';
import { UnsavedChangesGuard } from '../layout/UnsavedChangesGuard';
import { formErrorsFrom } from './serverErrors';
import { StripeNotice } from './StripeNotice';
import { VideoSourcesInput } from './VideoSourcesInput';

/**
 * Checked in the browser by the schema the server parses the plan with, so the messages are the
 * same. `raw`: the form submits what it holds (react-admin sends the whole record, derived fields
 * included); the server keeps only the plan's own fields.
 */
const resolver = zodResolver(planSchema, undefined, { raw: true });

const PLAN_DEFAULTS = {
  name: '',
  description: '',
  price: '',
  currency: 'usd',
  payment_schedule: 'monthly' as PaymentSchedule,
  managed_by: 'platform',
  max_funnel: null,
  max_branch_per_funnel: null,
  video_sources: null,
  is_active: true,
  sort_order: 0,
};

const AMOUNT = /^\d{1,7}(\.\d{1,3})?$/;

/** Price and currency; a free plan has neither (its price is fixed at 0). */
const PriceInputs = () => {
  const { setValue } = useFormContext();
  const [schedule, price, currency] = useWatch({ name: ['payment_schedule', 'price', 'currency'] }) as [
    PaymentSchedule,
    string | undefined,
    string | undefined,
  ];
  const previous = useRef(schedule);
  useEffect(() => {
    if (previous.current === schedule) return;
    // Switching to free fixes the price at 0; leaving free asks for a price again.
    if (schedule === 'free') setValue('price', '0', { shouldDirty: true });
    else if (previous.current === 'free' && Number(price) === 0) setValue('price', '', { shouldDirty: true });
    previous.current = schedule;
  }, [schedule, price, setValue]);

  if (schedule === 'free') {
    return (
      <Typography variant="body2" sx={{ mt: 1, mb: 2 }} data-testid="free-price-note">
        Price: Free. Free plans never involve a payment provider.
      </Typography>
    );
  }
  const amount = String(price ?? '').trim();
  const code = String(currency ?? '')
    .trim()
    .toLowerCase();
  const preview =
    AMOUNT.test(amount) && Number(amount) > 0 && /^[a-z]{3}$/.test(code) && fitsCurrency(amount, code)
      ? `Shown to users as ${priceDisplay({ price: amount, currency: code, payment_schedule: schedule })}`
      : 'An amount such as 19 or 19.99.';
  return (
    <>
      <TextInput source="price" label="Price" helperText={preview} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      <TextInput source="currency" label="Currency" helperText="A 3-letter currency code, such as usd or eur." />
    </>
  );
};

/** The plan form, shared by create and edit; the server's field errors land under their inputs. */
export const PlanForm = ({ toolbar }: { toolbar?: ReactElement | false }) => {
  const { save } = useSaveContext();
  const onSubmit = async (values: FieldValues) => formErrorsFrom(await save?.(values));
  return (
    <SimpleForm
      resolver={resolver}
      onSubmit={onSubmit}
      toolbar={toolbar}
      defaultValues={PLAN_DEFAULTS}
      disableInvalidFormNotification
      noValidate
      // Leaving with unsaved changes asks first.
      warnWhenUnsavedChanges
      WarnWhenUnsavedChangesComponent={UnsavedChangesGuard}
      sx={{ maxWidth: 720 }}
    >
      <TextInput source="name" label="Name" />
      <TextInput source="description" label="Description" multiline minRows={2} helperText="Shown on the plan page (optional)." />
      {/* Required: no blank choice. */}
      <SelectInput source="payment_schedule" label="Payment schedule" choices={scheduleChoices} isRequired />
      <PriceInputs />
      <StripeNotice />
      <SelectInput
        source="managed_by"
        label="Managed by"
        choices={managedByChoices}
        isRequired
        helperText="Self-managed subscriptions are created and changed through the API, not from the admin panel."
      />
      <Typography component="h2" variant="subtitle1" sx={{ mt: 2, fontWeight: 600 }}>
        Limits
      </Typography>
      <NumberInput
        source="max_funnel"
        label="Max funnels"
        min={0}
        step={1}
        placeholder="Unlimited"
        helperText="Leave empty for unlimited."
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <NumberInput
        source="max_branch_per_funnel"
        label="Max branches per funnel"
        min={0}
        step={1}
        placeholder="Unlimited"
        helperText="Leave empty for unlimited. Text elements are held to the same number."
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <VideoSourcesInput />
      <BooleanInput source="is_active" label="Active" helperText="Inactive plans are hidden from the plan page; their subscribers keep them." />
      <NumberInput
        source="sort_order"
        label="Display order"
        min={0}
        step={1}
        parse={(v: string) => (v === '' ? 0 : Number(v))}
        helperText="Lower numbers come first on the plan page."
      />
    </SimpleForm>
  );
};
