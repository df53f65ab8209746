import { NumberInput, type NumberInputProps } from '@mantine/core';

/**
 * Not a component to use: NumberField's split point. Mantine's NumberInput lives in a module of its
 * own so that NumberField can load it when a form first shows one (boundaries.test.ts checks that
 * nothing else imports it, nor NumberInput).
 */
export default function LoadedNumberInput(props: NumberInputProps) {
  return <NumberInput {...props} />;
}
