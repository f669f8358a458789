import { FormatRegistry, type Static, type TObject } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { useForm, type DefaultValues, type FieldErrors, type FieldPath, type FieldValues, type RegisterOptions, type Resolver } from 'react-hook-form';
import { fieldLabel } from './problems.js';
import { dateLocale } from './locale.js';
import { activeLanguage, loadProblems, translate as t } from './translate.js';

/**
 * Forms are checked before sending with the server's own field schemas (lib/fields.ts, shared
 * with the routes), through react-hook-form. People learn about a mistake next to the field; the
 * service checks again and its answer wins.
 */

// The server checks formats with ajv-formats' full rules (src/plugins/validation.ts); so do the forms.
FormatRegistry.Set('email', (value) => (fullFormats.email as RegExp).test(value));

/** Field name → message; empty when the form may be sent. */
export type FormErrors = Record<string, string>;

export interface FormRules<T> {
  /**
   * Labels of fields whose API name is not what the form shows ("name" → "Room name"); a function
   * where the rules are made once (outside a component), so the label is read in the language in use.
   */
  labels?: Partial<Record<keyof T & string, string | (() => string)>>;
  /** Text fields sent without surrounding spaces (names, e-mail); checked as they will be sent. */
  trim?: readonly (keyof T & string)[];
  /** Checks across fields (a password typed twice), made once every field is valid on its own. */
  refine?: (values: T) => FormErrors;
}

interface Bounds {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

const number = (value: number | undefined) => (value ?? 0).toLocaleString(dateLocale());
/** A label inside a sentence: lower case, except in German, where nouns keep their capital. */
const inSentence = (label: string) => (activeLanguage() === 'de' ? label : label.toLowerCase());

/** The one place that turns a schema's complaint about a field into a sentence (problems:form.*, docs/i18n.md). */
export function fieldMessage(error: ValueError, label: string): string {
  const schema = error.schema as Bounds;
  switch (error.type) {
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? t('problems:form.required', { label }) : t('problems:form.minLength', { label, count: schema.minLength ?? 0 });
    // The only pattern of the field schemas is "not blank".
    case ValueErrorType.StringPattern:
      return t('problems:form.required', { label });
    case ValueErrorType.StringMaxLength:
      return t('problems:form.maxLength', { label, count: schema.maxLength ?? 0 });
    case ValueErrorType.StringFormat:
      return schema.format === 'email' ? t('problems:form.email') : t('problems:form.invalid', { label });
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
      return t('problems:form.integer', { label });
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
      return t('problems:form.between', { label, min: number(schema.minimum), max: number(schema.maximum) });
    case ValueErrorType.Kind:
      return t('problems:form.choose', { label: inSentence(label) });
    default:
      return t('problems:form.invalid', { label });
  }
}

const labelOf = (label: string | (() => string) | undefined) => (typeof label === 'function' ? label() : label);

function trimmed<T extends object>(values: T, fields: readonly string[] = []): T {
  const copy = { ...values } as Record<string, unknown>;
  for (const field of fields) if (typeof copy[field] === 'string') copy[field] = (copy[field] as string).trim();
  return copy as T;
}

/** Checks form values against a schema: the values as they will be sent, and the first complaint per field. */
export function checkForm<S extends TObject>(schema: S, input: Static<S>, rules: FormRules<Static<S>> = {}): { values: Static<S>; errors: FormErrors } {
  const values = trimmed(input, rules.trim);
  const errors: FormErrors = {};
  for (const error of Value.Errors(schema, values)) {
    const field = error.path.split('/')[1] ?? '';
    errors[field] ??= fieldMessage(error, labelOf(rules.labels?.[field as keyof Static<S> & string]) ?? fieldLabel(field));
  }
  if (Object.keys(errors).length === 0 && rules.refine) Object.assign(errors, rules.refine(values));
  return { values, errors };
}

/** A resolver for react-hook-form from a check that answers the values to send and the errors found. */
export function resolverOf<T extends FieldValues>(check: (input: T) => { values: T; errors: FormErrors }): Resolver<T> {
  return async (input) => {
    // Its complaints are problem sentences (docs/i18n.md#what-it-weighs).
    await loadProblems();
    const { values, errors } = check(input);
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    const fieldErrors: Record<string, { type: string; message: string }> = {};
    for (const [field, message] of Object.entries(errors)) fieldErrors[field] = { type: 'invalid', message };
    return { values: {}, errors: fieldErrors as FieldErrors<T> };
  };
}

export const schemaResolver = <S extends TObject>(schema: S, rules: FormRules<Static<S>> = {}): Resolver<Static<S>> =>
  resolverOf((input) => checkForm(schema, input, rules));

/** A new password typed twice (`confirm` repeats `field`). */
export const passwordsMatch =
  <T extends { confirm: string }>(field: keyof T & string) =>
  (values: T): FormErrors =>
    values[field] === values.confirm ? {} : { confirm: t('problems:form.passwordsDiffer') };

/**
 * A react-hook-form form checked by `resolver`. `field(name)` gives an input's props: its
 * registration and its error message.
 */
export function useCheckedForm<T extends FieldValues>(defaultValues: T, resolver: Resolver<T>) {
  const form = useForm<T>({ resolver, defaultValues: defaultValues as DefaultValues<T> });
  const field = (name: FieldPath<T>, options?: RegisterOptions<T, FieldPath<T>>) => ({
    ...form.register(name, options),
    error: (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message,
  });
  return { ...form, field };
}

/** A form checked by a schema made of the server's field schemas. */
export const useSchemaForm = <S extends TObject>(schema: S, defaultValues: Static<S>, rules: FormRules<Static<S>> = {}) =>
  useCheckedForm(defaultValues, schemaResolver(schema, rules));

export type SchemaForm<S extends TObject> = ReturnType<typeof useCheckedForm<Static<S>>>;
