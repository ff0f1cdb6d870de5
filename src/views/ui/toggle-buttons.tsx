import type { ReactNode } from 'react';
import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import styles from './segmented.module.css';

export interface ToggleOption<K extends string> {
  id: K;
  label: ReactNode;
  /** Accessible name when the label is an icon. */
  ariaLabel?: string;
  isDisabled?: boolean;
}

export interface ToggleButtonsProps<K extends string> {
  label: string;
  options: ReadonlyArray<ToggleOption<K>>;
  selected: K;
  onChange: (id: K) => void;
}

/** One-of-several toggle buttons (react-aria ToggleButtonGroup, single selection that cannot be emptied). */
export function ToggleButtons<K extends string>({
  label,
  options,
  selected,
  onChange,
}: ToggleButtonsProps<K>) {
  const pick = (keys: Set<Key>) => {
    const chosen = options.find((option) => keys.has(option.id));
    if (chosen) onChange(chosen.id);
  };
  return (
    <ToggleButtonGroup
      aria-label={label}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[selected]}
      onSelectionChange={pick}
      className={styles.group}
    >
      {options.map((option) => (
        <ToggleButton
          key={option.id}
          id={option.id}
          aria-label={option.ariaLabel}
          isDisabled={option.isDisabled}
          className={styles.item}
        >
          {option.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
