import { useState } from 'react';
import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { errorMessage, fieldErrorsOf } from '../../shared/api';
import { BILLING_CHANGES } from './data';

/**
 * How an admin modal shows a refusal: a field error under the field it names (the first message),
 * anything else (a 409 such as 'Only canceled subscriptions can be resumed.', a declined card) as a
 * warning inside the modal, which stays open so the admin sees why. Such a refusal usually means the
 * page is out of date (another admin, a webhook): what it shows is fetched again behind the modal.
 */
export const useModalFailure = <T extends FieldValues>(fields: readonly FieldPath<T>[], setError?: UseFormSetError<T>) => {
  const [warning, setWarning] = useState<string | null>(null);
  const client = useQueryClient();
  const fail = (error: unknown) => {
    const errors = Object.entries(fieldErrorsOf(error));
    const onFields = errors.filter(([field, messages]) => fields.includes(field as FieldPath<T>) && messages[0]);
    for (const [field, messages] of onFields) setError?.(field as FieldPath<T>, { type: 'server', message: messages[0] });
    if (onFields.length && onFields.length === errors.length) return setWarning(null);
    setWarning(errorMessage(error));
    for (const queryKey of BILLING_CHANGES) void client.invalidateQueries({ queryKey });
  };
  return { warning, fail, clear: () => setWarning(null) };
};

/** The refusal inside a modal, announced to screen readers. */
export const ModalWarning = ({ message, severity = 'warning' }: { message: string | null; severity?: 'warning' | 'error' }) =>
  message ? (
    <Alert severity={severity} role="alert" sx={{ mb: 2 }} data-testid="modal-warning">
      {message}
    </Alert>
  ) : null;
