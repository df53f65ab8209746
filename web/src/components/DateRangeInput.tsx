import '@mantine/dates/styles.layer.css';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import dayjs from 'dayjs';
import { DAY_FORMAT } from '../lib/days';

export interface DateRangeInputProps {
  label: string;
  /** YYYY-MM-DD days. */
  value: DatesRangeValue<string>;
  /** Called with both days once the range is complete, with a half range while picking. */
  onChange: (value: DatesRangeValue<string>) => void;
  locale: string;
  /** The last day that can be picked (YYYY-MM-DD). */
  maxDate?: string;
  testId: string;
}

/** Mantine range picker of YYYY-MM-DD days. A default export: load it lazily, only when a custom range is chosen (it and its CSS are a chunk of their own). */
export default function DateRangeInput({ label, value, onChange, locale, maxDate, testId }: DateRangeInputProps) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      locale={locale}
      valueFormat="DD/MM/YYYY"
      value={value}
      maxDate={maxDate}
      allowSingleDateInRange
      onChange={(v) => onChange([v[0] ? dayjs(v[0]).format(DAY_FORMAT) : null, v[1] ? dayjs(v[1]).format(DAY_FORMAT) : null])}
      popoverProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
