import type { Key } from 'react-aria-components';
import {
  Button,
  ComboBox as AriaComboBox,
  FieldError,
  Group,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons.tsx';
import type { SelectOption } from './multi-select.tsx';
import styles from './field.module.css';

export interface ComboBoxProps {
  label: string;
  options: readonly SelectOption[];
  selectedId: string | undefined;
  onChange: (id: string | undefined) => void;
  /** Shown (and announced) under the field; marks it invalid. */
  errorMessage?: string;
  isDisabled?: boolean;
  placeholder?: string;
}

const idOf = (key: Key | null): string | undefined => (key === null ? undefined : String(key));

/** A searchable single choice: type to narrow the options, arrows and Enter to pick. */
export function ComboBox({
  label,
  options,
  selectedId,
  onChange,
  errorMessage,
  isDisabled,
  placeholder,
}: ComboBoxProps) {
  return (
    <AriaComboBox
      className={styles.field}
      defaultItems={options}
      selectedKey={selectedId ?? null}
      onSelectionChange={(key) => onChange(idOf(key))}
      isInvalid={errorMessage !== undefined}
      isDisabled={isDisabled}
      validationBehavior="aria"
      menuTrigger="focus"
    >
      <Label className={styles.label}>{label}</Label>
      <Group className={styles.inputGroup}>
        <Input className={styles.input} placeholder={placeholder} />
        <Button className={styles.inputButton} aria-label="Show options">
          <ChevronDownIcon />
        </Button>
      </Group>
      <FieldError className={styles.error}>{errorMessage}</FieldError>
      <Popover className={styles.popover} placement="bottom start">
        <ListBox
          className={styles.listBox}
          renderEmptyState={() => <div className={styles.empty}>No matches</div>}
        >
          {(option: SelectOption) => (
            <ListBoxItem id={option.id} textValue={option.name} className={styles.option}>
              {option.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
