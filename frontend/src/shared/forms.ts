import { useCallback, useState, type FormEvent } from 'react';
import { fieldErrorsOf, type FieldErrors } from './api';
import { useAlert } from './alerts';

/**
 * Form state with the server's field errors mapped onto inputs (the first message
 * under the input, red border). Native validation is off (`noValidate` on every form).
 */
export const useForm = <V extends Record<string, unknown>>(initial: V) => {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const alert = useAlert();

  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!e[key as string]) return e;
      const { [key as string]: _gone, ...rest } = e;
      return rest;
    });
  }, []);

  /** Runs `action`; a failure shows the alert and keeps the field errors for the inputs. */
  const submit = useCallback(
    (action: (values: V) => Promise<void>) => async (event?: FormEvent) => {
      event?.preventDefault();
      if (submitting) return;
      setSubmitting(true);
      setErrors({});
      try {
        await action(values);
      } catch (error) {
        setErrors(fieldErrorsOf(error));
        alert.error(error);
      } finally {
        setSubmitting(false);
      }
    },
    [values, submitting, alert],
  );

  const error = (key: string): string | undefined => errors[key]?.[0];
  return { values, set, setValues, errors, setErrors, error, submitting, submit };
};
