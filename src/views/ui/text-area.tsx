import type { ReactNode } from 'react';
import {
  FieldError,
  Label,
  Text,
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';
import styles from './text-field.module.css';

export interface TextAreaProps extends Omit<AriaTextFieldProps, 'className' | 'children' | 'validationBehavior'> {
  label: string;
  description?: ReactNode;
  /** Shown (and announced) when set; marks the field invalid. */
  errorMessage?: string;
  rows?: number;
}

/** The multi-line TextField: label, text area, description and error wired together. */
export function TextArea({ label, description, errorMessage, isInvalid, rows = 3, ...props }: TextAreaProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={isInvalid ?? errorMessage !== undefined}
      validationBehavior="aria"
      className={styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      <AriaTextArea className={styles.input} rows={rows} />
      {description !== undefined && (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      )}
      <FieldError className={styles.error}>{errorMessage}</FieldError>
    </AriaTextField>
  );
}
