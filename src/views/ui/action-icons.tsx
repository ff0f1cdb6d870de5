/** More decorative icons for the list and its dialogs; like icons.tsx, aria-hidden, named by their control. */
import { iconProps as baseIconProps } from './icons.tsx';

/** A size smaller than the header's, to sit in dense toolbars and table cells. */
const iconProps = { ...baseIconProps, width: 18, height: 18 } as const;

export const RefreshIcon = () => (
  <svg {...iconProps}>
    <path d="M21 12a9 9 0 1 1-2.64-6.36" />
    <path d="M21 3v6h-6" />
  </svg>
);

export const MoreIcon = () => (
  <svg {...iconProps}>
    <circle cx="5" cy="12" r="1.5" />
    <circle cx="12" cy="12" r="1.5" />
    <circle cx="19" cy="12" r="1.5" />
  </svg>
);

export const FilterIcon = () => (
  <svg {...iconProps}>
    <path d="M3 5h18l-7 8v6l-4 2v-8z" />
  </svg>
);

export const SearchIcon = () => (
  <svg {...iconProps}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </svg>
);

export const PlusIcon = () => (
  <svg {...iconProps}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);

export const CloseIcon = () => (
  <svg {...iconProps} width={14} height={14}>
    <path d="M18 6 6 18M6 6l12 12" />
  </svg>
);

export const MinusIcon = () => (
  <svg {...iconProps} width={14} height={14}>
    <path d="M5 12h14" />
  </svg>
);

export const ListViewIcon = () => (
  <svg {...iconProps}>
    <path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" />
  </svg>
);

export const SplitViewIcon = () => (
  <svg {...iconProps}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M10 4v16" />
  </svg>
);

export const ArrowUpIcon = () => (
  <svg {...iconProps} width={14} height={14}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </svg>
);

export const ArrowDownIcon = () => (
  <svg {...iconProps} width={14} height={14}>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </svg>
);
