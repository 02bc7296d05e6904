import { useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useController, useForm, type Control, type DefaultValues, type FieldPath, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorsOf } from './api';
import { useAlert } from './alerts';
import { PasswordInput, TextArea, TextInput, type TextInputProps } from './inputs/TextInput';

/**
 * Forms: react-hook-form validated in the browser by the same zod schema the server validates
 * with (so the messages match), and the server's field errors (422) mapped onto the same inputs:
 * the first message under the input with a red border. Native validation stays off (`noValidate`).
 */
export type ApiForm<TIn extends FieldValues, TOut> = UseFormReturn<TIn, unknown, TOut> & {
  /** The submit handler: runs `action` with the parsed values; a failure marks the fields it names and shows the alert. */
  submit: (action: (values: TOut) => Promise<void>) => (event?: React.BaseSyntheticEvent) => Promise<void>;
  submitting: boolean;
};

/** Puts each server field error under its input (keys are field paths, e.g. `settings.enable_resume_play`). */
export const applyFieldErrors = <T extends FieldValues>(form: Pick<UseFormReturn<T>, 'setError'>, error: unknown): void => {
  for (const [field, messages] of Object.entries(fieldErrorsOf(error))) {
    if (messages[0]) form.setError(field as FieldPath<T>, { type: 'server', message: messages[0] });
  }
};

/**
 * A form's schema, or a loader of it: a page whose first screen needs no zod (the sign-in pages)
 * passes a loader, and the schema (with zod) arrives when the form is first validated.
 */
export type SchemaSource<TSchema> = TSchema | (() => Promise<TSchema>);

// The resolver's generics cannot follow a schema passed in as a type parameter.
const resolverOf = (schema: unknown): Resolver<FieldValues> => zodResolver(schema as never) as never;

/** The zod resolver of a schema source; a loader is called once, on the first validation. */
const useSchemaResolver = <TSchema extends z.ZodType<unknown, FieldValues>>(source: SchemaSource<TSchema>): Resolver<FieldValues> =>
  useMemo(() => {
    if (typeof source !== 'function') return resolverOf(source);
    let loaded: Promise<Resolver<FieldValues>> | undefined;
    return async (values, context, options) => {
      loaded ??= source().then(resolverOf);
      return (await loaded)(values, context, options);
    };
  }, [source]);

export const useApiForm = <TSchema extends z.ZodType<unknown, FieldValues>>(
  schema: SchemaSource<TSchema>,
  defaultValues: DefaultValues<z.input<TSchema>>,
): ApiForm<z.input<TSchema>, z.output<TSchema>> => {
  const resolver = useSchemaResolver(schema);
  const form = useForm<z.input<TSchema>, unknown, z.output<TSchema>>({
    resolver: resolver as never,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const alert = useAlert();
  const submit: ApiForm<z.input<TSchema>, z.output<TSchema>>['submit'] = (action) =>
    form.handleSubmit(async (values) => {
      try {
        await action(values);
      } catch (error) {
        applyFieldErrors(form, error);
        // A refused save is not a successful submit (a guard on unsaved work must stay on).
        form.setError('root.server', { type: 'server' });
        alert.error(error);
      }
    });
  return Object.assign(form, { submit, submitting: form.formState.isSubmitting });
};

export type BoundProps<T extends FieldValues, TOut> = { control: Control<T, unknown, TOut>; name: FieldPath<T> };
type TextProps = Omit<TextInputProps, 'name' | 'value' | 'onChange' | 'error'>;

/** A text input bound to a form field. */
export const FormTextInput = <T extends FieldValues, TOut>({ control, name, ...rest }: BoundProps<T, TOut> & TextProps) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextInput
      {...rest}
      name={name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.error?.message}
    />
  );
};

export const FormPasswordInput = <T extends FieldValues, TOut>({ control, name, ...rest }: BoundProps<T, TOut> & TextProps) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <PasswordInput
      {...rest}
      name={name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.error?.message}
    />
  );
};

export const FormTextArea = <T extends FieldValues, TOut>({ control, name, rows, ...rest }: BoundProps<T, TOut> & TextProps & { rows?: number }) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextArea
      {...rest}
      rows={rows}
      name={name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.error?.message}
    />
  );
};
