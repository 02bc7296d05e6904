import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { fieldErrorsOf } from './api';
import { useAlert } from './alerts';

/**
 * A small form of text fields for the sign-in pages, which every visitor downloads first: it does
 * what their useApiForm (react-hook-form, shared/form.tsx) did, without the library. The zod schema
 * loads on the first submit (the same schema the server validates with, so the messages match);
 * a field's first message shows under its input; after a submit, a changed field is checked again
 * as it is typed; an invalid submit focuses the first invalid input; the server's field errors
 * (422) land under the same inputs and its message in the alert. Native validation stays off.
 */
export type TextValues = Record<string, string>;

interface PlainField {
  name: string;
  value: string;
  onChange: (value: string) => void;
  inputRef: (el: HTMLInputElement | HTMLTextAreaElement | null) => void;
  error: string | undefined;
}

export interface PlainForm<TIn extends TextValues, TOut> {
  /** The props binding an input to the field `name`. */
  field: (name: keyof TIn & string) => PlainField;
  /** The first message of each field in error (also fields without an input, e.g. a link's token). */
  errors: Partial<Record<keyof TIn & string, string>>;
  /** The submit handler: runs `action` with the parsed values; a failure marks the fields it names and shows the alert. */
  submit: (action: (values: TOut) => Promise<void>) => (event?: FormEvent) => Promise<void>;
  submitting: boolean;
}

type Errors = Record<string, string>;

/** The first message of each field (the path of an issue, dotted), in the order zod reports them. */
const firstMessages = (issues: readonly z.core.$ZodIssue[]): Errors => {
  const errors: Errors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
};

/** The first message the server gave for each field (422), none for other failures. */
const serverMessages = (error: unknown): Errors => {
  const server: Errors = {};
  for (const [name, messages] of Object.entries(fieldErrorsOf(error))) if (messages[0]) server[name] = messages[0];
  return server;
};

/** The form's inputs by field: a ref callback for each and the focus for the first in error. */
const useInputRefs = () => {
  const inputs = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());
  // One ref callback per field, kept across renders, so the inputs stay in the page's order.
  const refs = useRef(new Map<string, PlainField['inputRef']>());
  const refOf = (name: string): PlainField['inputRef'] => {
    let ref = refs.current.get(name);
    if (!ref) {
      ref = (el) => {
        if (el) inputs.current.set(name, el);
        else inputs.current.delete(name);
      };
      refs.current.set(name, ref);
    }
    return ref;
  };
  /** The first input (in the page's order) whose field is in error takes the focus. */
  const focusFirst = (errors: Errors) => {
    for (const [name, el] of inputs.current) {
      if (errors[name]) {
        el.focus();
        break;
      }
    }
  };
  return { refOf, focusFirst };
};

export const usePlainForm = <TSchema extends z.ZodType<unknown, TextValues>>(
  loadSchema: () => Promise<TSchema>,
  defaultValues: z.input<TSchema>,
): PlainForm<z.input<TSchema>, z.output<TSchema>> => {
  type In = z.input<TSchema>;
  const [values, setValues] = useState<In>(defaultValues);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const submitted = useRef(false);
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const { refOf, focusFirst } = useInputRefs();
  const schema = useRef<Promise<TSchema> | undefined>(undefined);
  const alert = useAlert();

  const validate = useCallback(
    async (all: In): Promise<{ data: z.output<TSchema> | undefined; errors: Errors }> => {
      schema.current ??= loadSchema();
      const result = await (await schema.current).safeParseAsync(all);
      return result.success ? { data: result.data, errors: {} } : { data: undefined, errors: firstMessages(result.error.issues) };
    },
    [loadSchema],
  );

  const change = useCallback(
    (name: string, value: string) => {
      const next = { ...valuesRef.current, [name]: value } as In;
      valuesRef.current = next;
      setValues(next);
      // After the first submit, the changed field is checked again (its message updates as typed).
      if (submitted.current)
        void validate(next).then((r) =>
          setErrors((all) => {
            const { [name]: _old, ...rest } = all;
            return r.errors[name] ? { ...rest, [name]: r.errors[name] } : rest;
          }),
        );
    },
    [validate],
  );

  const field = (name: keyof In & string): PlainField => ({
    name,
    value: values[name] ?? '',
    onChange: (value) => change(name, value),
    inputRef: refOf(name),
    error: errors[name],
  });

  const submit: PlainForm<In, z.output<TSchema>>['submit'] = (action) => async (event) => {
    event?.preventDefault();
    submitted.current = true;
    setSubmitting(true);
    try {
      const checked = await validate(valuesRef.current);
      setErrors(checked.errors);
      if (!checked.data) {
        focusFirst(checked.errors);
        return;
      }
      try {
        await action(checked.data);
      } catch (error) {
        setErrors(serverMessages(error));
        alert.error(error);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return { field, errors: errors as PlainForm<In, z.output<TSchema>>['errors'], submit, submitting };
};
