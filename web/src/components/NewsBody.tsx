import { Text } from '@mantine/core';
import { Fragment } from 'react';
import { newsLines } from '../lib/newsBody';

/** A news body as text: URL-decoded, newlines as line breaks, never interpreted as HTML. */
export function NewsBody({ body, testId }: { body: string; testId?: string }) {
  const lines = newsLines(body);
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their position.
        <Fragment key={i}>
          {i > 0 && <br />}
          {line}
        </Fragment>
      ))}
    </Text>
  );
}
