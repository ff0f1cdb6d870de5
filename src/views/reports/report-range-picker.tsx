import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  Button,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateRangePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  Label,
  Popover,
  RangeCalendar,
} from 'react-aria-components';
import { isIsoDay } from '../../domain/list-request.ts';
import styles from './reports.module.css';

export interface DayRange {
  from: string;
  to: string;
}

const dateOf = (day: string): CalendarDate | null => (isIsoDay(day) ? parseDate(day) : null);

/**
 * The report's date range (react-aria DateRangePicker): typed segment by segment or picked in a
 * calendar; keyboard and screen reader work as react-aria makes them.
 */
export function ReportRangePicker({ value, onChange }: { value: DayRange; onChange: (range: DayRange) => void }) {
  const start = dateOf(value.from);
  const end = dateOf(value.to);
  return (
    <DateRangePicker
      className={styles.rangePicker}
      value={start && end ? { start, end } : null}
      onChange={(range) => {
        if (range) onChange({ from: range.start.toString(), to: range.end.toString() });
      }}
    >
      <Label className={styles.rangeLabel}>Date range</Label>
      <Group className={styles.rangeGroup}>
        <DateInput slot="start" className={styles.dateInput}>
          {(segment) => <DateSegment segment={segment} className={styles.segment} />}
        </DateInput>
        <span aria-hidden="true">–</span>
        <DateInput slot="end" className={styles.dateInput}>
          {(segment) => <DateSegment segment={segment} className={styles.segment} />}
        </DateInput>
        <Button className={styles.calendarButton} aria-label="Open calendar">
          ▾
        </Button>
      </Group>
      <Popover className={styles.popover}>
        <Dialog className={styles.calendarDialog} aria-label="Choose a date range">
          <RangeCalendar className={styles.calendar}>
            <header className={styles.calendarHeader}>
              <Button slot="previous" className={styles.calendarNav}>
                ◀
              </Button>
              <Heading />
              <Button slot="next" className={styles.calendarNav}>
                ▶
              </Button>
            </header>
            <CalendarGrid>{(date) => <CalendarCell date={date} className={styles.calendarCell} />}</CalendarGrid>
          </RangeCalendar>
        </Dialog>
      </Popover>
    </DateRangePicker>
  );
}
