import { Button, Input, SearchField as AriaSearchField, type SearchFieldProps as AriaSearchFieldProps } from 'react-aria-components';
import { CloseIcon, SearchIcon } from './action-icons.tsx';
import styles from './search-field.module.css';

export interface SearchFieldProps extends Omit<AriaSearchFieldProps, 'className' | 'children'> {
  placeholder?: string;
}

/** A search box (role searchbox): Escape or the clear button empties it; `onClear` follows. */
export function SearchField({ placeholder, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={styles.field}>
      <span className={styles.icon} aria-hidden="true">
        <SearchIcon />
      </span>
      <Input className={styles.input} placeholder={placeholder} />
      <Button className={styles.clear} aria-label="Clear search">
        <CloseIcon />
      </Button>
    </AriaSearchField>
  );
}
