import { useEffect, useMemo, useRef } from 'react';
import Form from '@rjsf/core';
import type { RJSFSchema, RJSFValidationError, UiSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { IdentificationForm as IdentificationFormData } from '../../../../schemas/identity-verification.schema.ts';
import { shapeErrorMessage, shapeHints } from '../../../../domain/form-shape-hints.ts';
import { templates, widgets } from './rjsf-theme.tsx';
import styles from './verification.module.css';

/**
 * AM §3/§5 the Add Identification form, rendered by rjsf from the server's JSON Schema and UI
 * schema. This module (rjsf and its validator) loads only when a re-verification modal opens.
 * The validators are the ones the server compiled from the same schema (a same-origin module):
 * the portal's CSP forbids the `new Function` ajv would compile with here.
 */

/** One validator per module address, built once from its compiled functions. */
const validators = new Map<string, ValidatorType>();

function isValidatorFunctions(value: unknown): value is ValidatorFunctions {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((entry) => typeof entry === 'function')
  );
}

/** rjsf's validator over the functions the options' load brought (the machine's context). */
function validatorFor(form: IdentificationFormData, functions: unknown): ValidatorType {
  const known = validators.get(form.ValidatorModule);
  if (known) return known;
  if (!isValidatorFunctions(functions)) throw new Error('The form validator module has no validators');
  const validator = createPrecompiledValidator(functions, form.FormSchema);
  validators.set(form.ValidatorModule, validator);
  return validator;
}

/**
 * Errors a person can act on: the `if` of a conditional only says its `then` failed (that error is
 * shown), and a value of the wrong shape says the shape the chosen state, country or colour expects.
 */
export const errorsFor =
  (schema: unknown) =>
  (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      .filter((error) => error.name !== 'if')
      .map((error) => {
        if (error.name === 'required') return { ...error, message: 'Required' };
        if (error.name === 'pattern') return { ...error, message: shapeErrorMessage(schema, error.schemaPath) };
        return error;
      });

const isBlank = (value: unknown) => value === undefined || value === '';

export interface IdentificationFormProps {
  form: IdentificationFormData;
  /** The compiled validators loaded with the options (identity-verification.machine's context). */
  validators: unknown;
  formData: Record<string, unknown>;
  /** After the first attempt errors show live (AM §5). */
  attempted: boolean;
  disabled: boolean;
  onChange: (formData: Record<string, unknown>, valid: boolean) => void;
  onAttempt: () => void;
  onSubmit: () => void;
}

export default function IdentificationForm(props: IdentificationFormProps) {
  const validator = validatorFor(props.form, props.validators);
  return <LoadedForm {...props} validator={validator} />;
}

function LoadedForm({
  form,
  formData,
  attempted,
  disabled,
  onChange,
  onAttempt,
  onSubmit,
  validator,
}: IdentificationFormProps & { validator: ValidatorType }) {
  const schema: RJSFSchema = form.FormSchema;
  const transformErrors = useMemo(() => errorsFor(schema), [schema]);
  // Each field's hint gives the shape the answers so far call for (the chosen state's, say).
  const hints = useMemo(() => shapeHints(schema, formData), [schema, formData]);
  const uiSchema = useMemo<UiSchema>(() => {
    const withHints: UiSchema = { ...form.UISchema, 'ui:submitButtonOptions': { norender: true } };
    for (const [field, hint] of Object.entries(hints)) {
      const own: unknown = withHints[field];
      withHints[field] = { ...(typeof own === 'object' && own !== null ? own : {}), 'ui:help': hint };
    }
    return withHints;
  }, [form.UISchema, hints]);
  const formRef = useRef<Form>(null);
  // From the first attempt on, every error shows at once, not only the next field changed.
  useEffect(() => {
    if (attempted) formRef.current?.validateForm();
  }, [attempted]);
  const validity = (data: unknown) =>
    transformErrors(validator.validateFormData(data, schema, undefined, transformErrors).errors).length === 0;
  return (
    <Form
      ref={formRef}
      className={styles.form}
      schema={schema}
      uiSchema={uiSchema}
      formData={formData}
      validator={validator}
      templates={templates}
      widgets={widgets}
      disabled={disabled}
      liveValidate={attempted ? 'onChange' : undefined}
      showErrorList={false}
      noHtml5Validate
      transformErrors={transformErrors}
      onChange={(event) => {
        const data =
          typeof event.formData === 'object' && event.formData !== null ? { ...event.formData } : {};
        // A field the chosen document no longer has is dropped (the server ignores it anyway).
        for (const key of Object.keys(data)) if (isBlank(data[key])) delete data[key];
        onChange(data, validity(data));
      }}
      onBlur={() => {
        if (!attempted) onAttempt();
      }}
      onSubmit={() => onSubmit()}
      onError={() => onAttempt()}
      aria-label="Identification"
    />
  );
}
