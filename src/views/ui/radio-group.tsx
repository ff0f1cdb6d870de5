import { FieldError, Label, Radio, RadioGroup as AriaRadioGroup } from 'react-aria-components';
import type { SelectOption } from './multi-select.tsx';
import styles from './radio-group.module.css';

export interface RadioGroupProps {
  label: string;
  options: readonly SelectOption[];
  selectedId: string | undefined;
  onChange: (id: string) => void;
  /** Shown (and announced) under the choices; marks the group invalid. */
  errorMessage?: string;
  isDisabled?: boolean;
}

/** One choice of a few, all visible: arrow keys move between them, the group is labelled. */
export function RadioGroup({ label, options, selectedId, onChange, errorMessage, isDisabled }: RadioGroupProps) {
  return (
    <AriaRadioGroup
      className={styles.group}
      value={selectedId ?? null}
      onChange={onChange}
      isInvalid={errorMessage !== undefined}
      isDisabled={isDisabled}
      validationBehavior="aria"
    >
      <Label className={styles.label}>{label}</Label>
      <div className={styles.options}>
        {options.map((option) => (
          <Radio key={option.id} value={option.id} className={styles.radio}>
            <span className={styles.dot} aria-hidden="true" />
            {option.name}
          </Radio>
        ))}
      </div>
      <FieldError className={styles.error}>{errorMessage}</FieldError>
    </AriaRadioGroup>
  );
}
