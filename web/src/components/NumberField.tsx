import { type NumberInputProps, TextInput } from '@mantine/core';
import { lazy, Suspense } from 'react';

// Mantine's NumberInput and its formatter are ~10 KB: a form shows a plain, disabled box of the same
// size for the moment they take to load, so no page's first load carries them.
const NumberInput = lazy(() => import('./NumberField.chunk'));

/** The one number field of the app (same props as Mantine's NumberInput, which it loads on its own). */
export function NumberField(props: NumberInputProps) {
  const { label, description, value } = props;
  return (
    <Suspense fallback={<TextInput label={label} description={description} value={value === undefined ? '' : String(value)} disabled readOnly />}>
      <NumberInput {...props} />
    </Suspense>
  );
}
