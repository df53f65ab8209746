import '@mantine/dates/styles.layer.css';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import dayjs from 'dayjs';
import { DAY_FORMAT } from './dates';

export interface CustomRangeInputProps {
  label: string;
  /** YYYY-MM-DD days. */
  value: DatesRangeValue<string>;
  /** Called with both days once the range is complete, with a half range while picking. */
  onChange: (value: DatesRangeValue<string>) => void;
  locale: string;
}

/** Mantine range picker (its own chunk: only loaded when "custom" is chosen). */
export default function CustomRangeInput({ label, value, onChange, locale }: CustomRangeInputProps) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      locale={locale}
      valueFormat="DD/MM/YYYY"
      value={value}
      maxDate={dayjs().endOf('month').format(DAY_FORMAT)}
      allowSingleDateInRange
      onChange={(v) => onChange([v[0] ? dayjs(v[0]).format(DAY_FORMAT) : null, v[1] ? dayjs(v[1]).format(DAY_FORMAT) : null])}
      popoverProps={{ withinPortal: true }}
      data-testid="logs-filter-range"
    />
  );
}
