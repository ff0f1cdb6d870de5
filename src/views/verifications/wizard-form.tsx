import { useEffect, useMemo, useRef, type FocusEvent } from 'react';
import Form from '@rjsf/core';
import {
  ariaDescribedByIds,
  ErrorSchemaBuilder,
  type ErrorSchema,
  type FormValidation,
  type ObjectFieldTemplateProps,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidatorType,
  type WidgetProps,
} from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { LoadedForm } from '../../schemas/verifications.schema.ts';
import { shapeErrorMessage } from '../../domain/form-shape-hints.ts';
import { templates, widgets } from '../applications/detail/verification/rjsf-theme.tsx';
import styles from './verifications.module.css';

/**
 * A wizard step's server-defined form, rendered by rjsf through the portal's theme (the Add
 * Identification form's), with validators the server compiled from the same schema (the CSP
 * forbids compiling here, docs/decisions/007). This module, and rjsf with it, loads only when the
 * wizard opens.
 */

const validators = new Map<string, ValidatorType>();

function isValidatorFunctions(value: unknown): value is ValidatorFunctions {
  return typeof value === 'object' && value !== null && Object.values(value).every((entry) => typeof entry === 'function');
}

function validatorFor(form: LoadedForm): ValidatorType {
  const known = validators.get(form.validatorModule);
  if (known) return known;
  if (!isValidatorFunctions(form.validators)) throw new Error('The form validator module has no validators');
  const validator = createPrecompiledValidator(form.validators, form.schema);
  validators.set(form.validatorModule, validator);
  return validator;
}

/**
 * Errors a person can act on: a conditional's `if` only says its `then` failed (that error shows),
 * and a value of the wrong shape says the shape expected (issue 32), where the schema gives it.
 */
const errorsFor =
  (schema: unknown) =>
  (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      .filter((error) => error.name !== 'if')
      .map((error) => {
        if (error.name === 'required' || error.name === 'minLength') return { ...error, message: 'Required' };
        if (error.name === 'pattern') return { ...error, message: shapeErrorMessage(schema, error.schemaPath) };
        return error;
      });

/** Names and addresses as typed (the theme's text widget upper-cases, which suits document numbers only). */
function PlainTextWidget({ id, value, required, disabled, readonly, placeholder, rawErrors, onChange, onBlur, onFocus, options }: WidgetProps) {
  const invalid = (rawErrors?.length ?? 0) > 0;
  const describedBy = ariaDescribedByIds(id, false)
    .split(' ')
    .filter((part) => invalid || !part.endsWith('__error'))
    .join(' ');
  return (
    <input
      id={id}
      name={id}
      className={styles.input}
      type="text"
      value={typeof value === 'string' || typeof value === 'number' ? value : ''}
      required={required}
      disabled={disabled || readonly}
      placeholder={placeholder}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      autoComplete="off"
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event: FocusEvent<HTMLInputElement>) => onBlur(id, event.target.value)}
      onFocus={(event: FocusEvent<HTMLInputElement>) => onFocus(id, event.target.value)}
    />
  );
}

/** Nested objects (Individual, Address, Identity document) as titled groups. */
function ObjectFieldTemplate({ title, properties, fieldPathId }: ObjectFieldTemplateProps) {
  const content = properties.map((property) => (property.hidden ? null : <div key={property.name}>{property.content}</div>));
  if (fieldPathId.$id === 'root' || !title) return <>{content}</>;
  return (
    <fieldset className={styles.group}>
      <legend>{title}</legend>
      {content}
    </fieldset>
  );
}

/** `{ 'IndividualDetails.FirstName': 'is required' }` as rjsf's error schema. */
function errorSchemaOf(errors: Record<string, string>): ErrorSchema {
  const builder = new ErrorSchemaBuilder();
  for (const [path, message] of Object.entries(errors)) builder.addErrors(message, path);
  return builder.ErrorSchema;
}

/** Rules the schema cannot say (a date that exists and has passed), added where rjsf validates. */
const customValidateFor =
  (problems: ((formData: Record<string, unknown>) => Record<string, string>) | undefined) =>
  (formData: unknown, errors: FormValidation): FormValidation => {
    if (!problems || typeof formData !== 'object' || formData === null) return errors;
    for (const [path, message] of Object.entries(problems({ ...formData }))) {
      let node: unknown = errors;
      for (const part of path.split('.')) node = typeof node === 'object' && node !== null ? Reflect.get(node, part) : undefined;
      const addError: unknown = typeof node === 'object' && node !== null ? Reflect.get(node, 'addError') : undefined;
      if (typeof addError === 'function') addError.call(node, message);
    }
    return errors;
  };

export interface WizardFormProps {
  id: string;
  label: string;
  form: LoadedForm;
  formData: Record<string, unknown>;
  attempted: boolean;
  disabled: boolean;
  serverErrors: Record<string, string>;
  /** Problems the schema cannot express, by form path (SUV §5: the call is not made while any is shown). */
  problems?: (formData: Record<string, unknown>) => Record<string, string>;
  onChange: (formData: Record<string, unknown>, valid: boolean) => void;
  /** The form was submitted; `valid` says whether it passed its schema. */
  onSubmit: (valid: boolean) => void;
}

export default function WizardForm({ id, label, form, formData, attempted, disabled, serverErrors, problems, onChange, onSubmit }: WizardFormProps) {
  const validator = validatorFor(form);
  const uiSchema = useMemo<UiSchema>(() => ({ ...form.uiSchema, 'ui:submitButtonOptions': { norender: true } }), [form.uiSchema]);
  const schema: RJSFSchema = form.schema;
  const transformErrors = useMemo(() => errorsFor(schema), [schema]);
  const formRef = useRef<Form>(null);
  const extraErrors = useMemo(() => errorSchemaOf(serverErrors), [serverErrors]);
  // A field the server refused gets the focus, as a schema error would.
  useEffect(() => {
    const [first] = Object.keys(serverErrors);
    if (first) document.getElementById(`root_${first.replaceAll('.', '_')}`)?.focus();
  }, [serverErrors]);
  const customValidate = useMemo(() => customValidateFor(problems), [problems]);
  const validity = (data: unknown) => transformErrors(validator.validateFormData(data, schema, customValidate, transformErrors).errors).length === 0;
  return (
    <Form
      ref={formRef}
      id={id}
      className={styles.form}
      schema={schema}
      uiSchema={uiSchema}
      formData={formData}
      validator={validator}
      templates={{ ...templates, ObjectFieldTemplate }}
      widgets={{ ...widgets, TextWidget: PlainTextWidget }}
      disabled={disabled}
      liveValidate={attempted ? 'onChange' : undefined}
      showErrorList={false}
      noHtml5Validate
      omitExtraData
      liveOmit={attempted ? 'onChange' : undefined}
      focusOnFirstError
      extraErrors={extraErrors}
      customValidate={customValidate}
      transformErrors={transformErrors}
      onChange={(event) => {
        const data = typeof event.formData === 'object' && event.formData !== null ? { ...event.formData } : {};
        onChange(data, validity(data));
      }}
      onSubmit={() => onSubmit(true)}
      onError={() => onSubmit(false)}
      aria-label={label}
    />
  );
}
