import type { ReactNode } from 'react';
import {
  FieldError,
  Input,
  Label,
  Text,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';
import styles from './text-field.module.css';

export interface TextFieldProps extends Omit<
  AriaTextFieldProps,
  'className' | 'children' | 'validationBehavior'
> {
  label: string;
  /** Help below the input, announced with it. */
  description?: ReactNode;
  /** Shown (and announced) when set; marks the field invalid. */
  errorMessage?: string;
}

/** Label, input, description and error wired together; required fields are marked * (AM §5). */
export function TextField({
  label,
  description,
  errorMessage,
  isRequired,
  isInvalid,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isRequired={isRequired}
      isInvalid={isInvalid ?? errorMessage !== undefined}
      validationBehavior="aria"
      className={styles.field}
    >
      <Label className={styles.label}>
        {label}
        {isRequired && (
          <span className={styles.required} aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </Label>
      <Input className={styles.input} />
      {description !== undefined && (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      )}
      <FieldError className={styles.error}>{errorMessage}</FieldError>
    </AriaTextField>
  );
}
