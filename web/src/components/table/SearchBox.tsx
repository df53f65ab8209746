import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../api/resellerSearch';

interface Props {
  /** The filter's value in the URL. */
  value: string;
  /** Called with the trimmed text 500 ms after typing stops. */
  onChange: (v: string) => void;
  label: string;
  maxLength?: number;
  maw?: number;
  /**
   * Narrowest width before it wraps to a line of its own (in a wrapping row beside other filters):
   * with the default 0 a `flex: 1` box is squeezed to nothing next to fixed-width selects on a phone.
   */
  miw?: number;
  testId?: string;
}

/** A list's text filter: shows the URL's value, writes it back debounced. */
export function SearchBox({ value, onChange, label, maxLength = 50, maw = 320, miw = 0, testId }: Props) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const last = useRef(value);

  // The URL changed elsewhere (chip removed, back button): show it.
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const next = debounced.trim();
    if (next !== last.current) {
      last.current = next;
      onChange(next);
    }
  }, [debounced, onChange]);

  return (
    <TextInput
      flex={1}
      maw={maw}
      miw={miw}
      leftSection={<IconSearch size={16} />}
      placeholder={label}
      aria-label={label}
      value={text}
      maxLength={maxLength}
      onChange={(e) => setText(e.currentTarget.value)}
      data-testid={testId}
    />
  );
}
