import { NumberInput, type NumberInputProps } from '@mantine/core';

/** NumberInput in a module of its own: NumberField loads it when a form first shows one. */
export function NumberInputField(props: NumberInputProps) {
  return <NumberInput {...props} />;
}
