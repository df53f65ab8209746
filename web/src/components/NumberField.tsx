import { type NumberInputProps, TextInput } from '@mantine/core';
import { lazy, Suspense } from 'react';

// Mantine's NumberInput and its formatter are ~10 KB: a form shows a plain, disabled box of the same
// size for the moment they take to load, so no page's first load carries them.
const NumberInput = lazy(() => import('./NumberInputField').then((m) => ({ default: m.NumberInputField })));

/** A number field that loads on its own (same props as NumberInput). */
export function NumberField(props: NumberInputProps) {
  const { label, description, value } = props;
  return (
    <Suspense fallback={<TextInput label={label} description={description} value={value === undefined ? '' : String(value)} disabled readOnly />}>
      <NumberInput {...props} />
    </Suspense>
  );
}
