import { NumberInput, type NumberInputProps } from '@mantine/core';

/** The screens field (NumberInput and its formatter: a chunk of their own, which trial forms never load). */
export function ScreensInput(props: NumberInputProps) {
  return <NumberInput min={1} allowDecimal={false} allowNegative={false} clampBehavior="strict" {...props} />;
}
