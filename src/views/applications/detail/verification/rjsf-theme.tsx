import type { FocusEvent } from 'react';
import {
  ariaDescribedByIds,
  errorId,
  helpId,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
  type WidgetProps,
  type RegistryWidgetsType,
} from '@rjsf/utils';
import styles from './verification.module.css';

/**
 * A small rjsf theme over the UI kit's field styles (label, input, help, error as in
 * ui/text-field.tsx), instead of rjsf's Bootstrap markup. Errors are linked to their input by
 * aria-describedby and the input is marked aria-invalid, so a screen reader hears them.
 */

function FieldTemplate({ id, label, required, displayLabel, children, errors, help, hidden, classNames }: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  // The root object has no label of its own; its fields do.
  if (id === 'root') return <div className={classNames}>{children}</div>;
  return (
    <div className={styles.field}>
      {displayLabel && label && (
        <label htmlFor={id} className={styles.label}>
          {label}
          {required && (
            <span className={styles.required} aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
      )}
      {children}
      {help}
      {errors}
    </div>
  );
}

function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return <>{properties.map((property) => (property.hidden ? null : <div key={property.name}>{property.content}</div>))}</>;
}

function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <p id={helpId(fieldPathId)} className={styles.help}>
      {help}
    </p>
  );
}

function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className={styles.errors}>
      {errors.map((error, index) => (
        <li key={index}>{error}</li>
      ))}
    </ul>
  );
}

const describedBy = (id: string, hasErrors: boolean) =>
  hasErrors ? ariaDescribedByIds(id, false) : ariaDescribedByIds(id, false).split(' ').filter((part) => !part.endsWith('__error')).join(' ');

function TextWidget({ id, value, required, disabled, readonly, autofocus, placeholder, rawErrors, onChange, onBlur, onFocus, options }: WidgetProps) {
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <input
      id={id}
      name={id}
      className={styles.input}
      type="text"
      value={typeof value === 'string' || typeof value === 'number' ? value : ''}
      required={required}
      disabled={disabled || readonly}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- only when the schema asks for it
      autoFocus={autofocus}
      placeholder={placeholder}
      aria-invalid={invalid}
      aria-describedby={describedBy(id, invalid)}
      autoComplete="off"
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value.toUpperCase())}
      onBlur={(event: FocusEvent<HTMLInputElement>) => onBlur(id, event.target.value)}
      onFocus={(event: FocusEvent<HTMLInputElement>) => onFocus(id, event.target.value)}
    />
  );
}

function SelectWidget({ id, value, required, disabled, readonly, autofocus, placeholder, rawErrors, onChange, onBlur, onFocus, options }: WidgetProps) {
  const invalid = (rawErrors?.length ?? 0) > 0;
  const choices = options.enumOptions ?? [];
  return (
    <select
      id={id}
      name={id}
      className={styles.input}
      value={typeof value === 'string' ? value : ''}
      required={required}
      disabled={disabled || readonly}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- only when the schema asks for it
      autoFocus={autofocus}
      aria-invalid={invalid}
      aria-describedby={describedBy(id, invalid)}
      onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    >
      <option value="">{placeholder || 'Choose…'}</option>
      {choices.map((choice) => (
        <option key={String(choice.value)} value={String(choice.value)}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  ObjectFieldTemplate,
  FieldHelpTemplate,
  FieldErrorTemplate,
  ErrorListTemplate: () => null,
};

export const widgets: RegistryWidgetsType = { TextWidget, SelectWidget };
