import type { Key } from 'react-aria-components';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { CheckIcon, ChevronDownIcon } from './icons.tsx';
import styles from './field.module.css';

export interface SelectOption {
  /** Must not be empty: react-aria needs a key (map an empty value to a sentinel first). */
  id: string;
  name: string;
}

export interface MultiSelectProps {
  label: string;
  options: readonly SelectOption[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  placeholder?: string;
  isDisabled?: boolean;
}

const keyText = (key: Key): string => String(key);

/** A react-aria Select with `selectionMode="multiple"`: a button listing the picks, a list of ticked options. */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  placeholder = 'Any',
  isDisabled,
}: MultiSelectProps) {
  return (
    <Select
      selectionMode="multiple"
      value={selected}
      onChange={(keys) => onChange(keys.map(keyText))}
      placeholder={placeholder}
      isDisabled={isDisabled}
      className={styles.field}
    >
      <Label className={styles.label}>{label}</Label>
      <Button className={styles.trigger}>
        {/* The picks as a list ('A, B and C'), not the options' rendered content (their tick boxes). */}
        <SelectValue className={styles.value}>
          {({ isPlaceholder, defaultChildren, selectedText }) => (isPlaceholder ? defaultChildren : selectedText)}
        </SelectValue>
        <ChevronDownIcon />
      </Button>
      <Popover className={styles.popover} placement="bottom start">
        <ListBox
          className={styles.listBox}
          items={options}
          renderEmptyState={() => <div className={styles.empty}>No options</div>}
        >
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.name} className={styles.option}>
              {({ isSelected }) => (
                <>
                  <span className={styles.optionBox} aria-hidden="true">
                    {isSelected && <CheckIcon />}
                  </span>
                  {option.name}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
